import { type Connector, watchConnectors } from '@wagmi/core'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import type { PaySessionError } from '../errors/base.js'

export type WalletInfo = { id: string; name: string; icon?: string; rdns?: string }
export type GetWalletsReturnType = WalletInfo[]

export type GetWalletsErrorType = PaySessionError<never>

/**
 * The wallets the customer can pick: every EIP-6963 announced wallet (name, icon, rdns), the plain
 * injected provider when no announced wallet replaces it, and any configured connector.
 * @example getWallets(config).map((w) => w.name)
 */
export function getWallets(config: PaySessionConfig): GetWalletsReturnType {
  return toWallets(config.wagmiConfig.connectors)
}

/** Calls `onChange` when wallets announce themselves (EIP-6963) or connectors change. */
export function watchWallets(
  config: PaySessionConfig,
  onChange: (wallets: WalletInfo[]) => void,
): () => void {
  return watchConnectors(config.wagmiConfig, { onChange: (list) => onChange(toWallets(list)) })
}

function toWallets(connectors: readonly Connector[]): WalletInfo[] {
  const announced = connectors.some((c) => c.type === 'injected' && c.id !== 'injected')
  return connectors
    .filter((c) => !(c.id === 'injected' && announced))
    .map((c) => ({
      id: c.id,
      name: c.name,
      ...(c.icon ? { icon: c.icon } : {}),
      ...(typeof c.rdns === 'string' ? { rdns: c.rdns } : {}),
    }))
}
