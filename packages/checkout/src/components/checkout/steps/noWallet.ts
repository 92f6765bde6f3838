import { html, type TemplateResult } from 'lit'
import { qrCode } from '../../../qr/qrCode.js'
import type { View } from '../checkout.parts.js'

// Part of choosing a wallet when this browser has none; loads with the manual payment's view
// (loads.dialog.ts), which has the QR encoder.

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
