import { createRelay } from '../relay/createRelay.js'
import { relayError } from '../relay/errors.js'
import type { RelayOptions } from '../relay/options.js'
import type { X402Settle } from './types.js'

/**
 * Settlement through the merchant's own relay: `createRelay`'s `settle` applies every relay rule
 * (the offline checks first, the session, the chain, the contract-payer policy, the store's
 * claim once per session across instances, the shared nonces) and sends from the relayer.
 */
export function settleWithRelay(options: RelayOptions): X402Settle {
  const relay = createRelay(options)
  return async ({ sessionId, candidates, authorization, signature }) => {
    // The relay finds the network by the signature's domain: the symbol is what it takes.
    const token = candidates[0]?.symbol
    if (!token) throw relayError('RELAY_REFUSED', { details: 'no network relays the token' })
    const sent = await relay.settle({ sessionId, token, authorization, signature })
    return { transaction: sent.transactionHash, sessionId: sent.sessionId }
  }
}
