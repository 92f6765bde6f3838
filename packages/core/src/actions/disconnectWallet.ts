import { disconnect } from '@wagmi/core'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { walletError } from '../errors/wallet.js'

/**
 * Disconnects the current wallet.
 * @example await disconnectWallet(config)
 */
export async function disconnectWallet(config: PaySessionConfig): Promise<void> {
  try {
    await disconnect(config.wagmiConfig)
  } catch (error) {
    throw walletError(error)
  }
}
