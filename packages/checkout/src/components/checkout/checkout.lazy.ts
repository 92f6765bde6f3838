import type { CheckoutHost } from '../../controllers/checkout.controller.js'

// What the dialog's views load when first shown, each a lazy chunk: the dialog re-renders once
// it has arrived. The first file loads the dialog (checkout.component.ts), the button's read
// (preview.controller.ts) and the customer's language (i18n/catalogs.ts); the checkout
// controller loads core's rarer paths and the wallet kinds the page turned on.

/** A chunk fetched on first use: undefined until it has arrived, then the element re-renders. */
function lazy<M>(load: () => Promise<M>) {
  let loaded: M | undefined
  return (host: CheckoutHost) => {
    if (!loaded)
      void load().then((module) => {
        loaded = module
        host.requestUpdate()
      })
    return loaded
  }
}

const rare = lazy(() => import('./checkout.manual.js'))

/**
 * The views of the manual payment, of a browser without a wallet, of a pairing by URI and of the
 * two rare steps (checkout.manual.ts): undefined until loaded.
 */
export function lazyViews(host: CheckoutHost) {
  const views = rare(host)
  // The views' styles join each element's shadow root the first time that element shows them.
  if (views) host.addStyles(views.manualStyles)
  return views
}

/** The gasless button's code: loaded only when the merchant set `relay-url` and a token allows it. */
export const gaslessView = lazy(() => import('../../gasless/gasless.js'))
