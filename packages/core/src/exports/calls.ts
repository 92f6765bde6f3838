// Sending the transfer as an EIP-5792 call bundle, for wallets that report capabilities:
// `CheckoutPaths.calls`, or `payWithWallet`'s `sendCalls`.
export {
  type SendWithCalls,
  type SendWithCallsParameters,
  sendWithCalls,
} from '../actions/sendWithCalls.js'
