import { formatDecimal, parseAmount, resolveSessionAssets } from '@paysession/core'
import { html, nothing, type TemplateResult } from 'lit'
import { format } from '../../i18n/localize.js'
import { eip681Transfer } from '../../qr/eip681.js'
import { qrPath } from '../../qr/qrPath.js'
import { copyButton, errorBox, tokenAmount, type View } from './checkout.parts.js'

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
        session?.receivedAmount && /[1-9]/.test(session.receivedAmount)
          ? html`<br />${format(t.received, {
              amount: formatDecimal(session.receivedAmount, host.resolvedLocale, {
                minimumFractionDigits: 2,
              }),
              token: symbol,
            })}`
          : nothing
      }
    </p>
    ${expires ? html`<p class="center muted">${format(t.payBefore, { time: expires })}</p>` : nothing}
  `
}

// ---- No wallet in this browser ---------------------------------------------------------------

const words: Record<string, { openIn: string; scan: string; qr: string }> = {
  en: {
    openIn: 'Open this checkout in your wallet app:',
    scan: 'Scan this code with your phone to pay there:',
    qr: 'QR code that opens this checkout on your phone',
  },
  de: {
    openIn: 'Diesen Checkout in Ihrer Wallet-App öffnen:',
    scan: 'Scannen Sie diesen Code mit dem Handy, um dort zu bezahlen:',
    qr: 'QR-Code, der diesen Checkout auf dem Handy öffnet',
  },
  fr: {
    openIn: 'Ouvrir ce paiement dans votre application de wallet :',
    scan: 'Scannez ce code avec votre téléphone pour y payer :',
    qr: 'QR code qui ouvre ce paiement sur votre téléphone',
  },
}

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
  const language = view.host.resolvedLocale.toLowerCase().split('-')[0]!
  const t = words[language] ?? words.en!
  const url = location.href
  if (isPhone())
    return html`<p>${t.openIn}</p>
      <ul class="list">
        ${walletLinks(url).map(
          ([name, href]) =>
            html`<li><a part="wallet-link" href=${href} rel="noopener noreferrer">${name}</a></li>`,
        )}
      </ul>`
  const qr = qrPath(url)
  return html`<p class="center">${t.scan}</p>
    <svg part="qr" role="img" viewBox="-2 -2 ${qr.size + 4} ${qr.size + 4}"
      shape-rendering="crispEdges" aria-label=${t.qr}>
      <path fill="#000" d=${qr.d}></path>
    </svg>`
}
