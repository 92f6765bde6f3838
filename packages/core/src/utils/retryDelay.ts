import type { PollingSettings } from '../createPaySessionConfig.js'

/** Exponential backoff: `retryDelay` after the first failure (0), doubled per failure, capped. */
export function retryDelay(polling: PollingSettings, failureCount: number): number {
  return Math.min(polling.retryDelay * 2 ** failureCount, polling.maxRetryDelay)
}
