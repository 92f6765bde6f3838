import { parseAmount, resolveSessionAssets } from '@paysession/core'
import { html, nothing } from 'lit'
import { format } from '../../i18n/localize.js'
import { eip681Transfer } from '../../qr/eip681.js'
import { qrPath } from '../../qr/qrPath.js'
import { copyButton, errorBox, tokenAmount, type View } from './checkout.dialog.js'

// Loaded when the customer first pays manually (or has no wallet): the default payment, with a
// wallet, never needs this view, the QR encoder or the wallet links.

/** Pay manually: the address, the amount and an EIP-681 QR code, and the session followed. */
export function manual(view: View) {
  const { ctl, host, state, t } = view
  const session = state.session
  const to = session?.oneTimeWalletAddress
  let uri: string | undefined
  let symbol = session?.tokenSymbol ?? ''
  try {
    const { network, tokens } = resolveSessionAssets(ctl.config!.registry, session ?? {})
    const token = tokens.find((x) => x.symbol === symbol) ?? tokens[0]!
    symbol = token.symbol
    if (to)
      uri = eip681Transfer({
        token: token.address,
        chainId: network.chainId,
        to,
        units: parseAmount(session!.amount, token.decimals),
      })
  } catch {
    // Unknown network or token: the address alone still lets the customer pay.
  }
  const amount = tokenAmount(view)
  const network = state.network?.name ?? session?.network ?? ''
  const qr = uri && qrPath(uri)
  const expires = session?.expiresAt
    ? new Intl.DateTimeFormat(host.resolvedLocale, {
        dateStyle: 'medium',
        timeStyle: 'short',
      }).format(new Date(session.expiresAt))
    : undefined
  return html`
    <h3>${t.manualTitle}</h3>
    ${errorBox(view)}
    <p>${format(t.manualText, { amount, token: symbol, network })}</p>
    ${to ? html`<code part="address">${to}</code>` : nothing}
    <div class="actions">${to ? copyButton(view, to) : nothing}</div>
    ${
      qr
        ? html`<svg part="qr" role="img" viewBox="-2 -2 ${qr.size + 4} ${qr.size + 4}"
            shape-rendering="crispEdges" aria-label=${format(t.manualQr, { amount, token: symbol, address: to ?? '' })}>
            <path fill="#000" d=${qr.d}></path>
          </svg>`
        : nothing
    }
    ${uri ? html`<p class="center"><a href=${uri}>${t.openInWallet}</a></p>` : nothing}
    <p part="notice" class="center">
      <span class="spinner"></span>${t.manualWaiting}
      ${
        session?.receivedAmount && +session.receivedAmount > 0
          ? html`<br />${format(t.received, { amount: session.receivedAmount, token: symbol })}`
          : nothing
      }
    </p>
    ${expires ? html`<p class="center muted">${format(t.payBefore, { time: expires })}</p>` : nothing}
  `
}
