// The code only some checkouts need, in one lazily loaded chunk: gasless (EIP-3009), call
// bundles (EIP-5792), reading the one-time wallet after the service refused the token, and the
// checkout's paths for a payment left in flight (../checkout/recovery.ts). One chunk, because
// two lazy chunks sharing code with the dialog make the bundler split that code out of the
// dialog into extra common chunks, which costs the default payment bytes.
export { resume, untrack, waitForPrompt } from '../checkout/recovery.js'
export { payWithAuthorization } from './payWithAuthorization.js'
export { sendWithCalls } from './sendWithCalls.js'
export { waitForOneTimeWalletFunding } from './waitForOneTimeWalletFunding.js'
