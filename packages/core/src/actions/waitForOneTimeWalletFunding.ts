import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { sleep } from '../utils/sleep.js'
import {
  type GetOneTimeWalletFundingParameters,
  getOneTimeWalletFunding,
} from './getOneTimeWalletFunding.js'

/** The spec's funding window (section 8): a session not funded within 24 hours is canceled. */
const FUNDING_WINDOW = 24 * 3600_000

export type WaitForOneTimeWalletFundingParameters = GetOneTimeWalletFundingParameters & {
  session: { expiresAt?: string | undefined; createdAt?: string | undefined }
  /**
   * End of the funding window (ms since the epoch). Default: the session's `expiresAt`, else its
   * `createdAt` plus the spec's 24 hours.
   */
  deadline?: number | undefined
  /** Between two reads (ms). Default: the config's idle polling interval. */
  interval?: number | undefined
  signal?: AbortSignal | undefined
}
/**
 * `received`: the wallet holds the amount (in `token`). `windowClosed`: it did not when the window
 * ended. `aborted`: the signal stopped the wait.
 */
export type WaitForOneTimeWalletFundingReturnType =
  | { outcome: 'received'; token: string }
  | { outcome: 'windowClosed' | 'aborted' }

/**
 * Reads the one-time wallet on chain until it holds the amount or the funding window closes
 * (an unfunded session is canceled then). A failed read is tried again at the next interval.
 * @example
 * const { outcome } = await waitForOneTimeWalletFunding(config, { session })
 * if (outcome === 'received') showPaid()
 */
export async function waitForOneTimeWalletFunding(
  config: PaySessionConfig,
  parameters: WaitForOneTimeWalletFundingParameters,
): Promise<WaitForOneTimeWalletFundingReturnType> {
  const { signal, session } = parameters
  const deadline =
    parameters.deadline ??
    (Date.parse(session.expiresAt ?? '') || Date.parse(session.createdAt ?? '') + FUNDING_WINDOW)
  for (;;) {
    if (signal?.aborted) return { outcome: 'aborted' }
    const funding = await getOneTimeWalletFunding(config, parameters).catch(() => undefined)
    if (signal?.aborted) return { outcome: 'aborted' }
    if (funding?.received) return { outcome: 'received', token: funding.token! }
    if (funding && Date.now() > deadline) return { outcome: 'windowClosed' }
    await sleep(parameters.interval ?? config.polling.idleInterval, signal)
  }
}
