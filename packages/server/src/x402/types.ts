import type { PaymentRequirements } from '@x402/core/types'
import type { Hex } from 'viem'
import type { X402Token } from './paymentRequirements.js'
import type { X402Payment } from './readPayment.js'

/** One payment to settle: the session it pays, what the session asked for, and the payment. */
export type X402Settlement = {
  sessionId: string
  /** The merchant's name of the session's network (e.g. `BASE`). */
  network: string
  token: X402Token
  requirements: PaymentRequirements
  payment: X402Payment
}

/**
 * Applies the relay's rules to a payment and sends it: answers the transaction hash, or throws
 * the relay's `PaySessionError`. The merchant's relay or an x402 facilitator.
 */
export type X402Settle = (settlement: X402Settlement) => Promise<{ transaction: Hex }>
