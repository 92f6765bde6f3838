// The actions only some payments need, in one lazily loaded chunk: gasless (EIP-3009), call
// bundles (EIP-5792), and reading the one-time wallet after the service refused the token. One chunk, because two lazy chunks sharing viem code make the bundler split
// that code out of the dialog into extra common chunks, which costs the default payment bytes.
export { payWithAuthorization } from './payWithAuthorization.js'
export { sendWithCalls } from './sendWithCalls.js'
export { waitForOneTimeWalletFunding } from './waitForOneTimeWalletFunding.js'
