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
/** `received`: the wallet holds the amount. `windowClosed`: it did not when the window ended. */
export type WaitForOneTimeWalletFundingReturnType = 'received' | 'windowClosed' | 'aborted'

/**
 * Reads the one-time wallet on chain until it holds the amount or the funding window closes
 * (an unfunded session is canceled then). A failed read is tried again at the next interval.
 * @example if ((await waitForOneTimeWalletFunding(config, { session, deadline })) === 'received') showPaid()
 */
export async function waitForOneTimeWalletFunding(
  config: PaySessionConfig,
  parameters: WaitForOneTimeWalletFundingParameters,
): Promise<WaitForOneTimeWalletFundingReturnType> {
  const { signal, deadline } = parameters
  for (;;) {
    if (signal?.aborted) return 'aborted'
    const funding = await getOneTimeWalletFunding(config, parameters).catch(() => undefined)
    if (signal?.aborted) return 'aborted'
    if (funding?.received) return 'received'
    if (funding && Date.now() > deadline) return 'windowClosed'
    await sleep(parameters.interval ?? config.polling.idleInterval, signal)
  }
}
