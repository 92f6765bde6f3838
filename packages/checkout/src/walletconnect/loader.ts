import type { CreateConnectorFn } from '@wagmi/core'

/** What `<paysession-checkout>` passes to the WalletConnect connector. */
export type WalletConnectOptions = {
  /** The merchant's WalletConnect (Reown) project id. */
  projectId: string
  /** The relay's WebSocket URL. Default: WalletConnect's own relay. */
  relayUrl?: string | undefined
}

export type WalletConnectModule = {
  walletConnectConnector(options: WalletConnectOptions): CreateConnectorFn
}

// WalletConnect's code is hundreds of KB: the element never imports it. Importing
// `@paysession/checkout/walletconnect` (npm), or the script-tag build's own registration, hands
// the element a loader that fetches it the first time a checkout with a project id opens.
let load: (() => Promise<WalletConnectModule>) | undefined

/** Registers how the WalletConnect connector's code is loaded (once per page). */
export function provideWalletConnect(loader: () => Promise<WalletConnectModule>) {
  load = loader
}

/** The registered loader; undefined when this build has no WalletConnect. */
export function walletConnectLoader() {
  return load
}
