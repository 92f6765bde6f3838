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

// Each timer is stopped on the clock that started it. Its id is negative: one that is not (a
// browser's) or not a number (Node's) was started by the provider before ours, on the system's.
const stops = new Map<number, () => void>()
let count = 0

const clear = (id: number | undefined) => {
  const stop = stops.get(id!)
  if (!stop) return systemClock.clearTimeout(id)
  stops.delete(id!)
  stop()
}

function start(callback: () => void, delay: number, again: boolean): number {
  const clock = current
  const id = --count
  // The clock has timeouts only: an interval is one timeout after another.
  const arm = () => {
    const timer = clock.setTimeout(() => {
      if (again) arm()
      else stops.delete(id)
      callback()
    }, delay)
    stops.set(id, () => clock.clearTimeout(timer))
  }
  arm()
  return id
}

const provider: TimeoutProvider<number> = {
  setTimeout: (callback, delay) => start(callback, delay, false),
  clearTimeout: clear,
  setInterval: (callback, delay) => start(callback, delay, true),
  clearInterval: clear,
}
