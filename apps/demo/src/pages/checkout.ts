import type { WalletConfig } from '../../wallet/config.js'
import { formatPrice } from '../catalog/money.js'
import type { Product } from '../catalog/products.js'
import type { Order } from '../server/orders.js'
import { html, type SafeHtml } from './html.js'
import { illustration } from './illustration.js'
import { layout } from './layout.js'

export type { WalletConfig }

/** The sandbox wallet's tag; a classic script so it announces itself before any module runs. */
export function walletTag(wallet: WalletConfig): SafeHtml {
  return html`<script src="/assets/sandbox-wallet.js" data-config="${JSON.stringify(wallet)}"></script>`
}

export type CheckoutPageOptions = {
  order: Order
  product: Product
  apiBase: string
  /** The merchant's gasless relay, when mounted. */
  relayUrl?: string | undefined
  wallet: WalletConfig
  /** The script-tag build is there (packages/checkout/dist/cdn). */
  cdnAvailable: boolean
  /** Subresource Integrity of the script, when the checkout build publishes one. */
  integrity: string | undefined
  /** How this page came to be, when not as the Node demo's server renders it (the hosted demo). */
  how?: SafeHtml | undefined
}

export function orderSummary(order: Order, product: Product): SafeHtml {
  return html`<aside class="card summary">
  ${illustration(product)}
  <div class="summary-body">
    <h2>${product.name}</h2>
    <dl class="facts">
      <div><dt>Total</dt><dd class="price">${formatPrice(order.amount, order.currency)} <small>${order.currency}</small></dd></div>
      <div><dt>Order</dt><dd><code>${order.paymentSessionId}</code></dd></div>
    </dl>
    <p class="muted">Paid in ${order.currency === 'EUR' ? 'EURC' : 'USDC or USDT'}. The amount goes to a one-time address made for this order.</p>
    <a class="link" href="/orders/${order.paymentSessionId}">Follow this order →</a>
  </div>
</aside>`
}

/** `/checkout/:id`: the widget embedded the way most merchants would, with one script tag. */
export function checkoutPage(options: CheckoutPageOptions): string {
  const { order, product } = options
  const snippet = `<!-- Sandbox only: a test wallet (real customers bring their own). A classic
     script, first, so it announces itself before the checkout looks for wallets. -->
<script src="/assets/sandbox-wallet.js" data-config='{"rpcUrl":"${options.wallet.rpcUrl}","chainId":${options.wallet.chainId},…}'></script>

<!-- The checkout: the one script a merchant adds. -->
<script type="module" src="/cdn/paysession-checkout.js"${options.integrity ? `\n        integrity="${options.integrity}" crossorigin="anonymous"` : ''}></script>

<!-- This shop's own page script: the local chain's RPC for the widget,
     and the "View your order" link once the widget fires paysession-paid. -->
<script type="module" src="/assets/checkout.js"></script>

<paysession-checkout
  session-id="${order.paymentSessionId}"
  session-token="<the token your server got at creation>"
  api-base="${options.apiBase}"
  merchant-name="Harbor &amp; Pine"
  expected-amount="${order.amount}"
  expected-currency="${order.currency}"${options.relayUrl ? `\n  relay-url="${options.relayUrl}"` : ''}>
</paysession-checkout>`
  return layout({
    title: 'Checkout',
    active: 'shop',
    head: html`${walletTag(options.wallet)}
${
  options.cdnAvailable
    ? html`<script type="module" src="/cdn/paysession-checkout.js" ${options.integrity ? html`integrity="${options.integrity}" crossorigin="anonymous"` : ''}></script>`
    : ''
}
<script type="module" src="/assets/checkout.js"></script>`,
    body: html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/">Shop</a> / Checkout</nav>
<h1>Checkout</h1>
<div class="checkout-grid">
  ${orderSummary(order, product)}
  <section class="card pay" aria-labelledby="pay-title">
    <h2 id="pay-title">Pay with stablecoins</h2>
    <p class="muted">Connect a wallet, pick a stablecoin, approve one transfer.</p>
    <div class="widget-slot">
      <paysession-checkout
        session-id="${order.paymentSessionId}"
        session-token="${order.sessionToken}"
        api-base="${options.apiBase}"
        merchant-name="Harbor &amp; Pine"
        expected-amount="${order.amount}"
        expected-currency="${order.currency}"
        relay-url="${options.relayUrl ?? ''}"
        data-rpc-url="${options.wallet.rpcUrl}"
        data-chain-id="${options.wallet.chainId}"></paysession-checkout>
      ${
        options.cdnAvailable
          ? ''
          : html`<p class="alert alert-warn">The checkout script is not built yet (<code>packages/checkout/dist/cdn</code>). Run <code>npm run setup</code>, then reload.</p>`
      }
    </div>
    <p class="paid-note alert alert-success" hidden role="status">Payment received. <a href="/orders/${order.paymentSessionId}">View your order →</a></p>
  </section>
</div>
<details class="card how">
  <summary>How this page embeds the checkout</summary>
  ${options.how ?? html`<p>The merchant server created the payment session with its API key (<code>@paysession/server</code>) and rendered this page with the session's id and short-lived token. The page loads three scripts, in this order: the sandbox's test wallet, the checkout, and this shop's own few lines (<code>/assets/checkout.js</code>). Only the checkout is needed on a real network. No inline script: the page runs under a strict Content-Security-Policy.</p>`}
  <pre><code>${snippet}</code></pre>
</details>`,
  })
}
