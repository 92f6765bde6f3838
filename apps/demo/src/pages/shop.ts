import { formatPrice } from '../catalog/money.js'
import { products } from '../catalog/products.js'
import { html } from './html.js'
import { illustration } from './illustration.js'
import { layout } from './layout.js'

/**
 * `/`: the shop. One form; each "Buy" button names its product. `integrations: false` leaves out
 * the choice of checkout integration (the hosted demo has only the script tag).
 */
export function shopPage(
  options: { error?: string | undefined; integrations?: boolean } = {},
): string {
  // One idempotency key per rendered page: submitting the same form twice (a double
  // click, a reload after a network error) replays the same session.
  const cart = crypto.randomUUID()
  return layout({
    title: 'Shop',
    active: 'shop',
    body: html`
<section class="hero">
  <h1>Small goods, made well.</h1>
  <p class="lede">Pay in stablecoins from any wallet. This shop is a demo merchant: every payment runs through the Payment Session Service sandbox on a local chain.</p>
</section>
${options.error ? html`<p class="alert alert-error" role="alert">${options.error}</p>` : ''}
<form method="post" action="/checkout" class="shop">
  <input type="hidden" name="cart" value="${cart}">
  ${
    options.integrations === false
      ? html`<input type="hidden" name="integration" value="script">`
      : html`<fieldset class="integration">
    <legend>Checkout integration</legend>
    <label><input type="radio" name="integration" value="script" checked> <span><strong>Script tag</strong> One &lt;script&gt; on a server-rendered page</span></label>
    <label><input type="radio" name="integration" value="spa"> <span><strong>SPA</strong> The npm package inside a Vite app</span></label>
  </fieldset>`
  }
  <ul class="products">
    ${products.map(
      (p) => html`<li class="product card">
      ${illustration(p)}
      <div class="product-body">
        <h2>${p.name}</h2>
        <p>${p.description}</p>
        <div class="product-foot">
          <span class="price">${formatPrice(p.amount, p.currency)} <small>${p.currency}</small></span>
          <button class="button" type="submit" name="product" value="${p.id}">Buy</button>
        </div>
      </div>
    </li>`,
    )}
  </ul>
</form>`,
  })
}
