import { html } from 'lit'
import { qrCode } from '../../../qr/qrCode.js'
import { copyButton, type View } from '../checkout.parts.js'

// Connecting a wallet that pairs by a URI (WalletConnect's `wc:`): the URI as a QR code for a
// phone's wallet to scan, and a button that copies it (a wallet on the same computer pastes it).
// It loads with the manual payment's view, which has the QR encoder and its styles.

/** The pairing while connecting: QR code, copy button, waiting. */
export function pairing(view: View, uri: string) {
  const { t } = view
  return html`
    <h3>${t.pairingTitle}</h3>
    <p class="center">${t.pairingScan}</p>
    ${qrCode(uri, t.pairingQr)}
    <p part="notice" class="center"><span class="spinner"></span>${t.connecting}</p>
    <div class="actions">${copyButton(view, uri, t.pairingCopy)}</div>
  `
}
