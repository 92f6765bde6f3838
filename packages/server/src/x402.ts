export {
  createX402Handler,
  type X402Handler,
  type X402HandlerOptions,
} from './x402/createX402Handler.js'
export { caip2, type X402Token } from './x402/paymentRequirements.js'
export { readPayment, type X402Payment } from './x402/readPayment.js'
export type { X402Claim, X402Settle } from './x402/types.js'
