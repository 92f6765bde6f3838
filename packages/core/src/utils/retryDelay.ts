import type { PollingSettings } from '../createPaySessionConfig.js'

// Checkouts opened together (a sale, a shared link) or coming back together after an outage
// would otherwise poll the service in bursts, each one the size of every open checkout. Every
// wait is partly random so they spread out and stay spread.

/**
 * Exponential backoff with full jitter: a random wait up to `retryDelay` doubled per failure
 * (failureCount 0 is the first), capped at `maxRetryDelay`. With `jitter` 0, exactly that ceiling.
 */
export function retryDelay(polling: PollingSettings, failureCount: number): number {
  const ceiling = Math.min(polling.retryDelay * 2 ** failureCount, polling.maxRetryDelay)
  return Math.round(ceiling * (1 - polling.jitter * Math.random()))
}

/** The wait before the next poll: `interval` on average, ± half of it times `jitter`. */
export function pollInterval(polling: PollingSettings, interval: number): number {
  return Math.round(interval * (1 + polling.jitter * (Math.random() - 0.5)))
}
