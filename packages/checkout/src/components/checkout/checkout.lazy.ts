import type { CheckoutHost } from '../../controllers/checkout.controller.js'

// What the dialog's views load when first shown, each a lazy chunk: the dialog re-renders once
// it has arrived. The first file loads the dialog (checkout.component.ts), the button's read
// (preview.controller.ts) and the customer's language (i18n/catalogs.ts); the checkout
// controller loads core's rarer paths and the wallet kinds the page turned on.

let rare: typeof import('./checkout.manual.js') | undefined
let gasless: typeof import('../../gasless/gasless.js') | undefined

/**
 * The views of the manual payment, of a browser without a wallet, of a pairing by URI and of the
 * two rare steps (checkout.manual.ts): undefined until loaded.
 */
export function lazyViews(host: CheckoutHost) {
  if (!rare) {
    void import('./checkout.manual.js').then((views) => {
      rare = views
      host.requestUpdate()
    })
    return undefined
  }
  // The views' styles join each element's shadow root the first time that element shows them.
  host.addStyles(rare.manualStyles)
  return rare
}

/** The gasless button's code: loaded only when the merchant set `relay-url` and a token allows it. */
export function gaslessView(host: CheckoutHost) {
  if (!gasless)
    void import('../../gasless/gasless.js').then((view) => {
      gasless = view
      host.requestUpdate()
    })
  return gasless
}
