import { decodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { getAddress, type Hex, isAddress, isHex } from 'viem'
import { relayError } from '../relay/errors.js'
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
  return { payload, ...authorizationOf(inner?.authorization, inner?.signature) }
}

/**
 * The checkout's gasless request (the relay's body: `{ paymentSessionId, token, authorization,
 * signature }`), so that `relay-url` can name the x402 endpoint and the widget's gasless path
 * settles through the same route. Its x402 payload is built for `accepted` once the session's
 * requirements are known.
 */
export function readRelayBody(bytes: Uint8Array) {
  let body: unknown
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    refuse('body is not JSON')
  }
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  const sessionId = b['paymentSessionId'] ?? b['sessionId']
  const token = b['token']
  if (typeof sessionId !== 'string' || !sessionId || sessionId.length > 200)
    refuse('paymentSessionId must be a string')
  if (typeof token !== 'string' || !token || token.length > 200) refuse('token must be a string')
  const { authorization, signature } = authorizationOf(b['authorization'], b['signature'])
  return {
    sessionId,
    token,
    authorization,
    signature,
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

function authorizationOf(value: unknown, signature: unknown) {
  const a = value as Record<string, unknown> | undefined
  if (typeof a !== 'object' || a === null)
    refuse('payload.authorization must be an object (EIP-3009)')
  const address = (value: unknown, name: string) =>
    typeof value === 'string' && isAddress(value, { strict: false })
      ? getAddress(value)
      : refuse(`authorization.${name} must be an address`)
  const uint = (value: unknown, name: string) =>
    typeof value === 'string' && /^(0|[1-9]\d{0,77})$/.test(value)
      ? BigInt(value)
      : refuse(`authorization.${name} must be a decimal integer string`)
  const nonce = a['nonce']
  if (typeof nonce !== 'string' || !isHex(nonce) || nonce.length !== 66)
    refuse('authorization.nonce must be 32 bytes of hex')
  if (typeof signature !== 'string' || !isHex(signature) || signature.length < 4)
    refuse('signature must be hex')
  return {
    authorization: {
      from: address(a['from'], 'from'),
      to: address(a['to'], 'to'),
      value: uint(a['value'], 'value'),
      validAfter: uint(a['validAfter'], 'validAfter'),
      validBefore: uint(a['validBefore'], 'validBefore'),
      nonce: nonce as Hex,
    } satisfies TransferAuthorization,
    signature: signature as Hex,
  }
}

function refuse(details: string, cause?: unknown): never {
  throw relayError('RELAY_REFUSED', { details, cause })
}
