// Every path of the checkout session off the usual payment, in one module (`EveryPath`): the one a
// UI loads lazily (`pathsFrom(() => import('@paysession/core/paths'))`, whose entry re-exports this
// module) and the one `createCheckout` bundles. A new path is exported here. Each also has an entry
// of its own (`/recovery`, `/gasless`, `/calls`) for a UI that loads them one by one.
export { payWithAuthorization } from '../actions/payWithAuthorization.js'
export { sendWithCalls } from '../actions/sendWithCalls.js'
export { resume, untrack, waitForPrompt } from './recovery.js'
