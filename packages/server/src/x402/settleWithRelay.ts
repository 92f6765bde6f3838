import { merchantError, type PaySessionError } from '@paysession/protocol'
import type { Hex } from 'viem'
import { createRelayHandler, type RelayHandlerOptions } from '../relay/createRelayHandler.js'
import { relayError, relayStatuses } from '../relay/errors.js'
import type { X402Settle } from './types.js'

/**
 * Settlement through the merchant's own relay: the payment goes through every rule of
 * `createRelayHandler` (offline checks, once per session through its store, the contract-payer
 * policy, fee and gas limits) and is sent from the merchant's relayer.
 */
export function settleWithRelay(options: RelayHandlerOptions): X402Settle {
  // The relay is reached through its handler: the one seam to the relay, in this file.
  const refusals = new WeakMap<Request, PaySessionError>()
  const relay = createRelayHandler({
    ...options,
    allowOrigin: undefined,
    // The refusal itself (with its details and cause), not only the code the relay answers.
    onRejected: (error, { request }) => void refusals.set(request, error),
    // The x402 handler applies the rate limit to the payer's request.
    rateLimit: false,
  })
  return async ({ sessionId, candidates, authorization, signature }) => {
    // The relay finds the network by the signature's domain: the symbol is what it takes.
    const symbol = candidates[0]?.symbol
    if (!symbol) throw relayError('RELAY_REFUSED', { details: 'no network relays the token' })
    const inner = new Request('http://x402.invalid/relay', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        paymentSessionId: sessionId,
        token: symbol,
        authorization: Object.fromEntries(
          Object.entries(authorization).map(([k, v]) => [k, typeof v === 'bigint' ? `${v}` : v]),
        ),
        signature,
      }),
    })
    const answer = await relay(inner)
    const body = (await answer.json().catch(() => ({}))) as {
      transactionHash?: Hex
      error?: { code?: string; message?: string }
    }
    if (answer.ok && body.transactionHash) return { transaction: body.transactionHash, sessionId }
    throw refusals.get(inner) ?? errorOf(body.error?.code)
  }
}

function errorOf(code: string | undefined): PaySessionError {
  if (code && Object.hasOwn(relayStatuses, code))
    return relayError(code as keyof typeof relayStatuses)
  return code === 'INVALID_CONFIG' ? merchantError(code) : relayError('RELAY_UNAVAILABLE')
}
