import { decodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import type { Hex } from 'viem'
import { parseAuthorization, parseRequest, refuse } from '../relay/parseRequest.js'
import type { TransferAuthorization } from '../relay/types.js'

/** A decoded x402 payment: what it says it pays, and the EIP-3009 authorization it carries. */
export type X402Payment = {
  payload: PaymentPayload
  authorization: TransferAuthorization
  signature: Hex
}

/** Longest header accepted: an EIP-3009 payment is well under 2 KiB, a contract's signature more. */
const maxHeaderLength = 16 * 1024

/**
 * The payment a request carries: x402 v2 sends it in `PAYMENT-SIGNATURE`, v1 clients in
 * `X-PAYMENT` (read too, when its content is v2). `undefined` without one; a payment that is
 * not an `exact` EIP-3009 authorization is refused (`RELAY_REFUSED`, the details say why).
 */
export function readPayment(request: Request): X402Payment | undefined {
  const header = request.headers.get('payment-signature') ?? request.headers.get('x-payment')
  if (header === null) return undefined
  if (header.length > maxHeaderLength) refuse('the payment header is too long')
  let payload: PaymentPayload
  try {
    payload = decodePaymentSignatureHeader(header.trim())
  } catch (error) {
    refuse('the payment header is not base64 JSON', error)
  }
  if (typeof payload !== 'object' || payload === null) refuse('the payment is not an object')
  if (payload.x402Version !== 2) refuse(`x402 version ${String(payload.x402Version)} (2 is spoken)`)
  const accepted = payload.accepted as Partial<PaymentPayload['accepted']> | undefined
  if (typeof accepted !== 'object' || accepted === null) refuse('accepted must be an object')
  if (accepted.scheme !== 'exact') refuse(`scheme ${String(accepted.scheme)} (exact is accepted)`)
  const inner = payload.payload as { authorization?: unknown; signature?: unknown } | undefined
  return { payload, ...parseAuthorization(inner?.authorization, inner?.signature) }
}

/**
 * The checkout's gasless request (the relay's body: `{ paymentSessionId, token, authorization,
 * signature }`), so that `relay-url` can name the x402 endpoint and the widget's gasless path
 * settles through the same route. Its x402 payload is built for `accepted` once the session's
 * requirements are known.
 */
export function readRelayBody(bytes: Uint8Array) {
  const request = parseRequest(bytes)
  const { authorization, signature } = request
  return {
    ...request,
    /** The payment as an x402 client would have sent it for `accepted`. */
    paymentFor: (accepted: PaymentRequirements): X402Payment => ({
      payload: {
        x402Version: 2,
        accepted,
        payload: {
          authorization: Object.fromEntries(
            Object.entries(authorization).map(([k, v]) => [k, typeof v === 'bigint' ? `${v}` : v]),
          ),
          signature,
        },
      },
      authorization,
      signature,
    }),
  }
}
