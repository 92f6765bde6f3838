import { type Backoff, backoffDelay } from './service.js'

// Every wait of the SDK and the server (core's polling loops, the server's request retries and
// `waitForCapture`) is timed here, through a `Clock` the caller passes, as query-core's
// `timeoutManager` does: nothing in this module starts a timer by itself or keeps state, and a
// test moves time by passing a clock of its own instead of waiting.

/** Where waits get the time and their timers. `systemClock` is the real one; tests pass their own. */
export type Clock = {
  /** Milliseconds since the epoch. */
  now(): number
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(timer: unknown): void
}

/** The platform's clock (`Date.now`, `setTimeout`). */
export const systemClock: Clock = {
  now: Date.now,
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (timer) => globalThis.clearTimeout(timer as ReturnType<typeof setTimeout>),
}

/**
 * Resolves after `ms` on `clock`, or at once when `signal` aborts (the caller decides what an
 * abort means).
 * @example await sleep(systemClock, 1_000, signal)
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const done = () => {
      clock.clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = clock.setTimeout(done, ms)
    signal?.addEventListener('abort', done)
  })
}

export type PollParameters<T> = {
  /** One read. A failure is tried again after `backoff`; without `backoff` it is thrown. */
  read: () => Promise<T>
  /** Resolve with the value once this holds. */
  until: (value: T) => boolean
  /** Between two reads (ms), or a function drawing each wait (for jitter). */
  interval: number | (() => number)
  /** The waits after failed reads; without it a failed read ends the poll with its error. */
  backoff?: Backoff | undefined
  /** The last read is at this time (ms since the epoch, on `clock`); then it resolves `undefined`. */
  deadline?: number | undefined
  signal?: AbortSignal | undefined
  clock: Clock
}

/**
 * Reads until `until` holds (resolves the value), the signal aborts or the deadline passes
 * (resolves `undefined`). A read at the deadline is the last.
 * @example const capture = await poll({ read, until: (c) => c.status !== 'CAPTURING', interval: 1_000, clock: systemClock })
 */
export async function poll<T>(parameters: PollParameters<T>): Promise<T | undefined> {
  const { read, until, interval, signal, backoff, clock } = parameters
  const deadline = parameters.deadline ?? Number.POSITIVE_INFINITY
  let failures = 0
  for (;;) {
    if (signal?.aborted) return undefined
    const last = clock.now() >= deadline
    let wait: number
    try {
      const value = await read()
      if (signal?.aborted) return undefined
      if (until(value)) return value
      failures = 0
      wait = typeof interval === 'number' ? interval : interval()
    } catch (error) {
      if (!backoff) throw error
      wait = backoffDelay(backoff, failures++)
    }
    if (last) return undefined
    await sleep(clock, Math.max(0, Math.min(wait, deadline - clock.now())), signal)
  }
}
