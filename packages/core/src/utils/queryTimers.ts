import { type Clock, systemClock } from '@paysession/protocol'
import { type TimeoutProvider, timeoutManager } from '@tanstack/query-core'

// query-core starts its timers (refetch intervals, retries, garbage collection) through its
// `timeoutManager`, which every QueryClient of the page shares. Once a config brings a clock other
// than the system's (a test's), the manager gets one provider for good, which starts each timer
// on the latest config's clock; until then it is left as the page set it.
let current: Clock = systemClock
let installed = false

/** Starts query-core's timers from now on on `clock`. */
export function runQueryTimersOn(clock: Clock): void {
  current = clock
  if (installed || clock === systemClock) return
  installed = true
  timeoutManager.setTimeoutProvider(provider)
}

type TimerId = { [Symbol.toPrimitive]: () => number }

// Each timer is cleared on the clock that started it; one not in this table was started by the
// provider before ours, on the system's timers.
const timers = new Map<TimerId, { clock: Clock; timer: unknown }>()
let count = 0

const clear = (id: TimerId | undefined) => {
  if (id === undefined) return
  const started = timers.get(id)
  if (!started) return systemClock.clearTimeout(id)
  timers.delete(id)
  started.clock.clearTimeout(started.timer)
}

function start(callback: () => void, delay: number, again: boolean): TimerId {
  const clock = current
  const n = ++count
  const id: TimerId = { [Symbol.toPrimitive]: () => n }
  const fire = () => {
    // The clock has timeouts only: an interval is one timeout after another.
    if (again) timers.set(id, { clock, timer: clock.setTimeout(fire, delay) })
    else timers.delete(id)
    callback()
  }
  timers.set(id, { clock, timer: clock.setTimeout(fire, delay) })
  return id
}

const provider: TimeoutProvider<TimerId> = {
  setTimeout: (callback, delay) => start(callback, delay, false),
  clearTimeout: clear,
  setInterval: (callback, delay) => start(callback, delay, true),
  clearInterval: clear,
}
