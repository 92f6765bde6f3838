// Every path of the checkout session off the usual payment, in one module, for a UI that loads
// them together (`pathsFrom(() => import('@paysession/core/paths'))`; `createCheckout` bundles
// it). A new path is exported here. Each also has an entry of its own (`/recovery`, `/gasless`,
// `/calls`) for a UI that loads them one by one.
export { payWithAuthorization } from '../actions/payWithAuthorization.js'
export { sendWithCalls } from '../actions/sendWithCalls.js'
export { resume, untrack, waitForPrompt } from '../checkout/recovery.js'
