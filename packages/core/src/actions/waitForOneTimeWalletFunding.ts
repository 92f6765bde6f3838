import type { PaySessionConfig } from '../createPaySessionConfig.js'
import type { PaySessionError } from '../errors/base.js'
import { poll } from '../utils/poll.js'
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

export type WaitForOneTimeWalletFundingErrorType = PaySessionError<
  'INVALID_ADDRESS' | 'UNSUPPORTED_NETWORK' | 'UNSUPPORTED_TOKEN'
>

/**
 * Reads the one-time wallet on chain until it holds the amount or the funding window closes
 * (an unfunded session is canceled then). A failed read is tried again after the backoff.
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
  const funding = await poll(config.polling, {
    read: () => getOneTimeWalletFunding(config, parameters),
    until: (read) => read.received || config.polling.clock.now() > deadline,
    interval: parameters.interval ?? config.polling.idleInterval,
    signal,
  })
  if (!funding) return { outcome: 'aborted' }
  return funding.received
    ? { outcome: 'received', token: funding.token! }
    : { outcome: 'windowClosed' }
}
