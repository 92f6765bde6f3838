import { html } from 'lit'
import { copyButton, type View } from '../components/checkout/checkout.parts.js'
import { qrCode } from '../qr/qrCode.js'

// WalletConnect's pairing while the customer connects: its `wc:` URI as a QR code for a phone's
// wallet to scan, and a button that copies it (a wallet on the same computer pastes it). It
// travels with the manual payment's view, which has the QR encoder and its styles.

/** The pairing step of a WalletConnect connection: QR code, copy button, waiting. */
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
