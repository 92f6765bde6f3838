import { walletConnect } from '@wagmi/connectors'
import type { CreateConnectorFn } from '@wagmi/core'
import type { WalletConnectOptions } from '../kinds.js'

/**
 * wagmi's WalletConnect connector without its modal: the checkout shows the pairing URI as its own
 * QR code (`display_uri`), so AppKit is never loaded. Telemetry is off: the page talks to the
 * relay only (and, for the dapp's attestation, WalletConnect's verify host).
 */
export function connector(options: WalletConnectOptions): CreateConnectorFn {
  return walletConnect({
    projectId: options.projectId,
    ...(options.relayUrl ? { relayUrl: options.relayUrl } : {}),
    showQrModal: false,
    telemetryEnabled: false,
  })
}
