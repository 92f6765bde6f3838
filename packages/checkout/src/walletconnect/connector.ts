import { checkSocketUrl } from '@paysession/core'
import { walletConnect } from '@wagmi/connectors'
import type { CreateConnectorFn } from '@wagmi/core'
import type { WalletConnectOptions } from './loader.js'

/**
 * wagmi's WalletConnect connector without its modal: the checkout shows the pairing URI as its own
 * QR code (`display_uri`), so AppKit is never loaded. Telemetry is off: the page talks to the
 * relay only (and, for the dapp's attestation, WalletConnect's verify host).
 */
export function walletConnectConnector(options: WalletConnectOptions): CreateConnectorFn {
  const connector = walletConnect({
    projectId: options.projectId,
    ...(options.relayUrl ? { relayUrl: options.relayUrl } : {}),
    showQrModal: false,
    telemetryEnabled: false,
  })
  // The relay by core's URL rule (wss, ws only to this machine), checked when the checkout's wagmi
  // config sets the connector up: a refused one ends that start with INVALID_CONFIG, no socket open.
  return (parameters) => {
    if (options.relayUrl) checkSocketUrl(options.relayUrl, 'walletConnectRelayUrl')
    return connector(parameters)
  }
}
