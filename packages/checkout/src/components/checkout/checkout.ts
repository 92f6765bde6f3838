import { PaySessionCheckout } from './checkout.component.js'

export { PaySessionCheckout }

// The script tag and an npm import may both load on one page: the first definition wins.
const defined = customElements.get('paysession-checkout')
if (!defined) customElements.define('paysession-checkout', PaySessionCheckout)
else if (defined !== PaySessionCheckout)
  console.warn('paysession-checkout is already defined (loaded twice?); keeping the first one.')

declare global {
  interface HTMLElementTagNameMap {
    'paysession-checkout': PaySessionCheckout
  }
}
