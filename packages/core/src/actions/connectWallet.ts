import { type Connector, connect, getConnection } from '@wagmi/core'
import type { Address } from 'viem'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import type { WalletErrorCode } from '../errors/wallet.js'
import { walletError } from '../errors/wallet.js'

export type ConnectWalletParameters = {
  /**
   * A wallet id from `getWallets` (connector id or rdns). Default: the first wallet that announced
   * itself through EIP-6963, else the injected `window.ethereum`, else the first connector.
   */
  walletId?: string | undefined
  /** Ask the wallet to connect on this chain. */
  chainId?: number | undefined
}
export type ConnectWalletReturnType = { account: Address; chainId: number; walletId: string }
export type ConnectWalletErrorType = PaySessionError<WalletErrorCode>

/**
 * Connects a wallet (or returns the current connection to it).
 * @example const { account } = await connectWallet(config, { walletId: 'io.metamask' })
 */
export async function connectWallet(
  config: PaySessionConfig,
  parameters: ConnectWalletParameters = {},
): Promise<ConnectWalletReturnType> {
  const { walletId } = parameters
  const connectors = config.wagmiConfig.connectors
  const connector = walletId
    ? connectors.find((c) => c.id === walletId || c.rdns === walletId)
    : defaultConnector(connectors)
  if (!connector) throw new PaySessionError('WALLET_NOT_FOUND', { details: walletId })

  const current = getConnection(config.wagmiConfig)
  if (current.status === 'connected' && current.connector.uid === connector.uid)
    return { account: current.address, chainId: current.chainId, walletId: connector.id }
  try {
    const result = await connect(config.wagmiConfig, {
      connector,
      ...(parameters.chainId ? { chainId: parameters.chainId } : {}),
    })
    return { account: result.accounts[0], chainId: result.chainId, walletId: connector.id }
  } catch (error) {
    if ((error as Error)?.name === 'ConnectorAlreadyConnectedError') {
      const connection = getConnection(config.wagmiConfig)
      if (connection.status === 'connected')
        return { account: connection.address, chainId: connection.chainId, walletId: connector.id }
    }
    throw walletError(error)
  }
}

// An EIP-6963 wallet announces itself as an injected connector with its own id (its rdns); the
// generic `injected` one only works when the page has `window.ethereum`, and `getWallets` hides it
// as soon as a wallet announced itself.
function defaultConnector(connectors: readonly Connector[]): Connector | undefined {
  const injected = connectors.filter((c) => c.type === 'injected')
  return injected.find((c) => c.id !== 'injected') ?? injected[0] ?? connectors[0]
}
