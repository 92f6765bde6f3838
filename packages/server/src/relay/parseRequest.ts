import { getAddress, type Hex, isAddress, isHex } from 'viem'
import { relayError } from './errors.js'
import type { TransferAuthorization } from './types.js'

/** What a caller asks the relay to send: a customer's signed authorization for a session. */
export type RelayRequest = {
  sessionId: string
  /** The token's symbol, as the session names it (e.g. `USDC`). */
  token: string
  authorization: TransferAuthorization
  signature: Hex
}

/**
 * A payment for the settlement pipeline, whichever way it came: the relay's request, or an x402
 * payment (with the network its requirements named). A sender may ask for more (a facilitator
 * needs the x402 payload: `FacilitatorPayment`).
 */
export type Payment = RelayRequest & {
  /** The relay's network name, when the payment names its chain (x402). */
  network?: string | undefined
}

/** The one answer for what fails before the relay knows the caller holds the session. */
export function refuse(details: string, cause?: unknown): never {
  throw relayError('RELAY_REFUSED', { details, cause })
}

/**
 * The relay's request body: `{ paymentSessionId (or sessionId), token, authorization: { from,
 * to, value, validAfter, validBefore, nonce }, signature }`, integers as decimal strings.
 */
export function parseRequest(bytes: Uint8Array): RelayRequest {
  let body: unknown
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    refuse('body is not JSON')
  }
  const b = record(body, 'body')
  const string = (value: unknown, name: string) =>
    typeof value === 'string' && value !== '' && value.length <= 200
      ? value
      : refuse(`${name} must be a string`)
  return {
    sessionId: string(b['paymentSessionId'] ?? b['sessionId'], 'paymentSessionId'),
    token: string(b['token'], 'token'),
    ...parseAuthorization(b['authorization'], b['signature']),
  }
}

/**
 * An EIP-3009 authorization (`{ from, to, value, validAfter, validBefore, nonce }`) and its
 * signature as JSON carries them: the relay's body and an x402 payment's payload.
 */
export function parseAuthorization(
  value: unknown,
  signature: unknown,
): Pick<RelayRequest, 'authorization' | 'signature'> {
  const a = record(value, 'authorization')
  const address = (value: unknown, name: string) =>
    typeof value === 'string' && isAddress(value, { strict: false })
      ? getAddress(value)
      : refuse(`authorization.${name} must be an address`)
  // Integers as decimal strings (numbers would lose precision); a JSON number is refused.
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
    },
    signature: signature as Hex,
  }
}

const record = (value: unknown, name: string) =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : refuse(`${name} must be an object`)
