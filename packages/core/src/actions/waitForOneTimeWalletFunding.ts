import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { sleep } from '../utils/sleep.js'
import {
  type GetOneTimeWalletFundingParameters,
  getOneTimeWalletFunding,
} from './getOneTimeWalletFunding.js'

export type WaitForOneTimeWalletFundingParameters = GetOneTimeWalletFundingParameters & {
  /** End of the funding window (ms since the epoch). */
  deadline: number
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
 * const { outcome } = await waitForOneTimeWalletFunding(config, { session, deadline })
 * if (outcome === 'received') showPaid()
 */
export async function waitForOneTimeWalletFunding(
  config: PaySessionConfig,
  parameters: WaitForOneTimeWalletFundingParameters,
): Promise<WaitForOneTimeWalletFundingReturnType> {
  const { signal, deadline } = parameters
  for (;;) {
    if (signal?.aborted) return { outcome: 'aborted' }
    const funding = await getOneTimeWalletFunding(config, parameters).catch(() => undefined)
    if (signal?.aborted) return { outcome: 'aborted' }
    if (funding?.received) return { outcome: 'received', token: funding.token! }
    if (funding && Date.now() > deadline) return { outcome: 'windowClosed' }
    await sleep(parameters.interval ?? config.polling.idleInterval, signal)
  }
}
