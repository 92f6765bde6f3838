import type { CreateConnectorFn } from '@wagmi/core'
import type { Inputs } from '../inputs.js'

// The wallet kinds the checkout bundles and loads itself, beside the page's EIP-6963 wallets and
// wagmi connectors. A kind is a folder, wallets/<kind>/: `connector.ts` (its wagmi connector, a
// lazy chunk: `<kind>.js` in the script-tag build) and `index.ts` (the npm entry
// `@paysession/checkout/<kind>` that registers it); a line in `walletKinds` below; and its
// attributes, rows of the element's inputs (src/inputs.ts).

/** The element's inputs that turn a bundled kind on. */
export type WalletAttributes = Readonly<
  Pick<Inputs, 'walletConnectProjectId' | 'walletConnectRelayUrl'>
>

/** What `<paysession-checkout>` passes to the WalletConnect connector. */
export type WalletConnectOptions = {
  /** The merchant's WalletConnect (Reown) project id. */
  projectId: string
  /** The relay's WebSocket URL. Default: WalletConnect's own relay. */
  relayUrl?: string | undefined
}

/** A bundled kind: its name in messages, its connector's options (undefined while it is off). */
export type WalletKindEntry<Options> = {
  name: string
  options(h: WalletAttributes): Options | undefined
  /** Set by `provideWallet`: fetches the kind's lazy chunk. */
  load?: () => Promise<{ connector(options: Options): CreateConnectorFn }>
}

export const walletKinds = {
  walletconnect: {
    name: 'WalletConnect',
    options: (h) =>
      h.walletConnectProjectId
        ? { projectId: h.walletConnectProjectId, relayUrl: h.walletConnectRelayUrl }
        : undefined,
  } as WalletKindEntry<WalletConnectOptions>,
}

export type WalletKind = keyof typeof walletKinds

// A kind's code is often hundreds of KB: the element never imports it. Its npm entry, or the
// script-tag build's kinds.cdn.ts, hands over a loader; loads.dialog.ts (`loadWallets`) calls it
// when a checkout with the kind turned on starts.

/** Registers how a kind's connector loads (once per page). */
export function provideWallet<K extends WalletKind>(
  kind: K,
  load: NonNullable<(typeof walletKinds)[K]['load']>,
) {
  walletKinds[kind].load = load
}
