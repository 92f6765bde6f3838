import { type CustomerErrorCode, customerMessages, type PaySessionErrorCode } from './codes.js'
import { PaySessionError, type PaySessionErrorParameters } from './errors.js'

/** The codes only the merchant's API-key calls meet, each with a sentence for the merchant's operator. */
export const merchantMessages = {
  FORBIDDEN: 'This credential may not perform this operation.',
  NOT_FOUND: 'The requested resource does not exist.',
  CAPTURE_NOT_FOUND: 'The capture does not exist.',
  SESSION_NOT_CAPTURABLE: 'The payment session cannot be captured in its current status.',
  AMOUNT_EXCEEDS_CAPTURABLE: 'The capture amount exceeds what can still be captured.',
  IDEMPOTENCY_CONFLICT: 'This requestId was already used with a different request.',
  INVALID_REQUEST: 'The request was missing a field or had a field of the wrong type.',
  INVALID_REQUEST_ID: 'The requestId is not valid.',
  MALFORMED_JSON: 'The request body was not valid JSON.',
  METHOD_NOT_ALLOWED: 'This operation does not accept that HTTP method.',
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'The request body must be application/json.',
  UNSUPPORTED_CURRENCY: 'The currency is not supported.',
  INVALID_CONFIG: 'The payment client is not configured correctly.',
} as const

/**
 * The gasless relay's refusals (`createRelayHandler` of `@paysession/server/relay`). The relay
 * answers with the sentence, so the checkout shows it without carrying these in its bundle.
 */
export const relayMessages = {
  RELAY_REFUSED: 'This authorization cannot be submitted. Please sign the payment again.',
  RATE_LIMITED: 'Too many attempts. Please wait a moment and try again.',
  WRONG_AMOUNT: 'The authorization is not for the amount this payment still owes.',
  AUTHORIZATION_NOT_YET_VALID: 'The authorization is not valid yet.',
  AUTHORIZATION_EXPIRED: 'The authorization has expired or expires too soon. Please sign again.',
  AUTHORIZATION_TOO_LONG: 'The authorization is valid for too long.',
  INVALID_SIGNATURE: 'The signature does not match the authorization.',
  AUTHORIZATION_USED: 'This authorization was already used or canceled.',
  ALREADY_RELAYED: 'A payment for this checkout was already submitted.',
  GAS_LIMIT_EXCEEDED: 'This payment needs more network fees than the merchant covers.',
  FEE_TOO_HIGH: 'Network fees are too high right now. Please try again later.',
  RELAYER_UNDERFUNDED: 'Payments without network fees are not available right now.',
  RELAY_UNAVAILABLE: 'The payment could not be submitted right now. Please try again in a moment.',
} as const

export type MerchantErrorCode = keyof typeof merchantMessages | keyof typeof relayMessages

/** Every code's sentence: the one codes table. */
export const shortMessages: Record<PaySessionErrorCode, string> = {
  ...customerMessages,
  ...merchantMessages,
  ...relayMessages,
}

export const paySessionErrorCodes = Object.keys(shortMessages) as PaySessionErrorCode[]

export function isPaySessionErrorCode(value: unknown): value is PaySessionErrorCode {
  return typeof value === 'string' && Object.hasOwn(shortMessages, value)
}

/**
 * A PaySessionError with the code's sentence from the whole table (what the server throws).
 * @example throw merchantError('INVALID_CONFIG', { details: 'apiKey is required.' })
 */
export function merchantError(
  code: PaySessionErrorCode,
  parameters: PaySessionErrorParameters = {},
): PaySessionError {
  return new PaySessionError(code, { shortMessage: shortMessages[code], ...parameters })
}

export type { CustomerErrorCode }
