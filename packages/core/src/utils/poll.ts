import {
  type Backoff,
  backoffDelay,
  type Clock,
  poll as pollOn,
  systemClock,
} from '@paysession/protocol'

// Every wait of the SDK's polling comes from one place, the config's `polling`: the session
// query (actions/watchSession.ts, a query-core observer) takes its intervals and retry delays from
// `pollInterval` and `retryDelay`, and every other loop (a call bundle's status, the one-time
// wallet on chain, a wallet prompt another tab holds, a hash the node has not seen yet) is `poll`.
// Checkouts opened together (a sale, a shared link) or coming back together after an outage would
// otherwise poll the service in bursts, so each wait is partly random and they stay spread.

/** How the SDK polls, set once in `createPaySessionConfig({ polling })` (or on the element). */
export type PollingSettings = Backoff & {
  /** Between two reads while a payment is on its way or the customer pays by hand (ms). */
  interval: number
  /** Between two reads otherwise (ms). */
  idleInterval: number
  /** How long a wallet's call bundle (EIP-5792) is followed before the chain is watched instead (ms). */
  callsTimeout: number
  /** Where every wait and query-core's timers get their time (protocol's `Clock`); tests pass their own. */
  clock: Clock
}

export const defaultPolling: PollingSettings = {
  interval: 2_000,
  idleInterval: 8_000,
  retryDelay: 1_000,
  maxRetryDelay: 30_000,
  jitter: 1,
  callsTimeout: 30_000,
  clock: systemClock,
}

/**
 * Exponential backoff with full jitter: a random wait up to `retryDelay` doubled per failure
 * (failureCount 0 is the first), capped at `maxRetryDelay`. With `jitter` 0, exactly that ceiling.
 */
export const retryDelay = (polling: PollingSettings, failureCount: number): number =>
  backoffDelay(polling, failureCount)

/** The wait before the next poll: `interval` on average, ± half of it times `jitter`. */
export const pollInterval = (polling: PollingSettings, interval: number): number =>
  Math.round(interval * (1 + polling.jitter * (Math.random() - 0.5)))

export type PollParameters<T> = {
  /** One read. A failure is tried again after the backoff (`retryDelay`). */
  read: () => Promise<T>
  /** Resolve with the value once this holds. */
  until: (value: T) => boolean
  /** Between two reads (ms, jittered). Default: `polling.interval`. */
  interval?: number | undefined
  signal?: AbortSignal | undefined
  /** The last read is at this time (ms since the epoch); then it resolves `undefined`. */
  deadline?: number | undefined
}

/**
 * Reads until `until` holds (resolves the value), the signal aborts or the deadline passes
 * (resolves `undefined`). Waits between reads and after failures come from `polling`.
 * @example const funding = await poll(config.polling, { read, until: (f) => f.received, signal })
 */
export const poll = <T>(
  polling: PollingSettings,
  parameters: PollParameters<T>,
): Promise<T | undefined> =>
  pollOn({
    ...parameters,
    interval: () => pollInterval(polling, parameters.interval ?? polling.interval),
    backoff: polling,
    clock: polling.clock,
  })
