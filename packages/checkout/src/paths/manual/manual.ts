import { html, nothing } from 'lit'
import {
  copyButton,
  errorBox,
  networkName,
  tokenAmount,
  usable,
  type View,
} from '../../components/checkout/checkout.parts.js'
import { manualPayment } from '../../controllers/manual.payment.js'
import { format, formatTokenAmount, numbers } from '../../i18n/localize.js'
import { qrCode } from '../../qr/qrCode.js'

// The manual payment's step view, in the lazy chunk of the rarer views (checkout.manual.ts),
// loaded when the customer first pays manually: the default payment, with a wallet, never needs
// this view or the QR encoder.

/** An address in groups of four, monospace, wrapping between groups only and evenly. */
const groupedAddress = (address: string) =>
  html`<code part="address" title=${address}>${address
    .slice(2)
    .match(/.{1,4}/g)!
    .map(
      (group, i) => html`${i ? html`<wbr />` : html`<span>0x</span><wbr />`}<span>${group}</span>`,
    )}</code>`

/**
 * Pay manually: a choice of every accepted stablecoin, the address in groups of four, the amount
 * and an EIP-681 QR code, the session followed, and a way back to the wallets.
 */
export function manual(view: View) {
  const { ctl, host, state, t } = view
  const session = state.session
  const to = session?.oneTimeWalletAddress
  const { symbols, symbol, uri } = manualPayment(ctl)
  const amount = tokenAmount(view)
  const network = networkName(view)
  const expires = session?.expiresAt
    ? new Intl.DateTimeFormat(numbers(host.resolvedLocale), {
        dateStyle: 'medium',
        timeStyle: 'short',
      }).format(new Date(session.expiresAt))
    : undefined
  return html`
    <h3>${t.manualTitle}</h3>
    ${errorBox(view)}
    ${
      symbols.length > 1
        ? html`<div class="tabs" role="group" aria-label=${t.token}>
          ${symbols.map(
            (
              x,
            ) => html`<button part="token" type="button" aria-pressed=${x === symbol ? 'true' : 'false'}
              @click=${() => ctl.chooseManualToken(x)}>${x}</button>`,
          )}
        </div>`
        : nothing
    }
    <p>${format(t.manualText, { amount, token: symbol, network })}</p>
    ${to ? html`${groupedAddress(to)}<div class="actions">${copyButton(view, to)}</div>` : nothing}
    ${uri ? qrCode(uri, format(t.manualQr, { amount, token: symbol, address: to ?? '' })) : nothing}
    ${uri ? html`<p class="center"><a href=${uri}>${t.openInWallet}</a></p>` : nothing}
    ${
      host.x402Url
        ? html`<p class="center muted">x402 <code part="x402-url">${host.x402Url}</code>
          ${copyButton(view, host.x402Url, t.pairingCopy)}</p>`
        : nothing
    }
    <p part="notice" class="center">
      <span class="spinner"></span>${t.manualWaiting}
      ${
        session?.receivedAmount && /[1-9]/.test(session.receivedAmount)
          ? html`<br />${format(t.received, {
              amount: formatTokenAmount(session.receivedAmount, undefined, host.resolvedLocale),
              token: session.tokenSymbol ?? symbol,
            })}`
          : nothing
      }
    </p>
    ${expires ? html`<p class="center muted">${format(t.payBefore, { time: expires })}</p>` : nothing}
    ${
      usable(state).length
        ? html`<div class="actions"><button class="link" type="button"
            @click=${() => ctl.pickWallet()}>${t.payWithWallet}</button></div>`
        : nothing
    }
  `
}
