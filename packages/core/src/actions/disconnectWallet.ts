import { disconnect } from '@wagmi/core'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import type { PaySessionError } from '../errors/base.js'
import type { WalletErrorCode } from '../errors/wallet.js'
import { walletError } from '../errors/wallet.js'

export type DisconnectWalletErrorType = PaySessionError<WalletErrorCode>

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
