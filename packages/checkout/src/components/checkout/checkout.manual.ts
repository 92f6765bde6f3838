import { html, nothing, type TemplateResult } from 'lit'
import { manualPayment } from '../../controllers/manual.payment.js'
import { format, formatTokenAmount, numbers } from '../../i18n/localize.js'
import { qrCode } from '../../qr/qrCode.js'
import { manualStyles } from './checkout.manual.styles.js'
import {
  copyButton,
  errorBox,
  networkName,
  tokenAmount,
  usable,
  type View,
} from './checkout.parts.js'

// Loaded when the customer first pays manually (or has no wallet): the default payment, with a
// wallet, never needs this view, the QR encoder or the wallet links.

export { pairing } from '../../walletconnect/pairing.js'
export { promptElsewhere, untracked } from './checkout.rare.js'
export { manualStyles }

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

// ---- No wallet in this browser ---------------------------------------------------------------

/**
 * Links that open `url` in a wallet app's own browser, in the formats each wallet documents:
 * MetaMask https://docs.metamask.io/sdk/guides/use-deeplinks ("Open a dapp inside the in-app
 * browser"), Coinbase Wallet https://docs.cdp.coinbase.com/coinbase-wallet/developer-guidance/mobile-dapp-integration
 * ("Dapp browser"), Trust Wallet https://developer.trustwallet.com/developer/develop-for-trust/deeplinking
 * ("DApp Browser"; coin_id 60 is Ethereum's SLIP-44 index, for every EVM chain). Rainbow
 * documents only WalletConnect links, so it is not listed.
 */
export function walletLinks(url: string): [name: string, href: string][] {
  return [
    ['MetaMask', `https://link.metamask.io/dapp/${url.replace(/^https?:\/\//, '')}`],
    ['Coinbase Wallet', `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(url)}`],
    [
      'Trust Wallet',
      `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(url)}`,
    ],
  ]
}

const isPhone = () =>
  /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent) ||
  (matchMedia('(pointer: coarse)').matches && matchMedia('(max-width: 820px)').matches)

/**
 * No wallet in this browser: on a phone, open this checkout in a wallet app's browser; on a
 * desktop, a QR code that opens it on the phone. The manual payment stays offered beside it.
 */
export function noWallet(view: View): TemplateResult {
  const { t } = view
  const url = location.href
  if (isPhone())
    return html`<p>${t.noWalletOpenIn}</p>
      <ul class="list">
        ${walletLinks(url).map(
          ([name, href]) =>
            html`<li><a part="wallet-link" href=${href} rel="noopener noreferrer">${name}</a></li>`,
        )}
      </ul>`
  return html`<p class="center">${t.noWalletScan}</p>
    ${qrCode(url, t.noWalletQr)}`
}
