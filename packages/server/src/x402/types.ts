import type { PaymentRequirements } from '@x402/core/types'
import type { Hex } from 'viem'
import type { X402Candidate } from './paymentRequirements.js'
import type { X402Payment } from './readPayment.js'

/** A payment for a session, as parsed, before anything but its form was checked. */
export type X402Claim = {
  /** The session id the payer named (the service's spelling comes back with the settlement). */
  sessionId: string
  /** The merchant's networks and tokens the payment may be in (no call made to find them). */
  candidates: X402Candidate[]
  authorization: X402Payment['authorization']
  signature: Hex
  /** The x402 payload for what the session asks, as the payer sent it or built from the body. */
  payloadFor: (requirements: PaymentRequirements) => X402Payment['payload']
}

/**
 * Applies the relay's rules to a payment and sends it: answers the transaction hash and the
 * session id as the service spells it, or throws the relay's `PaySessionError`. The merchant's
 * relay or an x402 facilitator.
 */
export type X402Settle = (claim: X402Claim) => Promise<{ transaction: Hex; sessionId: string }>
