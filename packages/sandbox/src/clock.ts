import { type Clock, systemClock } from '@paysession/protocol'

/** Protocol's `Clock` that a test can move forward: the sandbox's, and any waits run on it. */
export type SandboxClock = Clock & {
  /** Moves the time forward; the timers due by then fire at once, in order. */
  advance(seconds: number): void
}

/** Real time plus an offset that tests move forward; a timer fires at its time on either. */
export function createClock(): SandboxClock {
  let offsetMs = 0
  const timers = new Map<object, { at: number; fire: () => void; timer: unknown }>()
  const clock: SandboxClock = {
    now: () => systemClock.now() + offsetMs,
    setTimeout(callback, ms) {
      const id = {}
      const fire = () => {
        const timer = timers.get(id)
        if (!timer) return
        timers.delete(id)
        systemClock.clearTimeout(timer.timer)
        callback()
      }
      timers.set(id, { at: clock.now() + ms, fire, timer: systemClock.setTimeout(fire, ms) })
      return id
    },
    clearTimeout(id) {
      const timer = timers.get(id as object)
      if (!timer) return
      timers.delete(id as object)
      systemClock.clearTimeout(timer.timer)
    },
    advance(seconds) {
      offsetMs += seconds * 1000
      const now = clock.now()
      const due = [...timers.values()].filter((t) => t.at <= now).sort((a, b) => a.at - b.at)
      for (const timer of due) timer.fire()
    },
  }
  return clock
}
