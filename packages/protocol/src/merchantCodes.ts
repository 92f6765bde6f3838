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

export type MerchantErrorCode = keyof typeof merchantMessages

/** Every code's sentence: the one codes table. */
export const shortMessages: Record<PaySessionErrorCode, string> = {
  ...customerMessages,
  ...merchantMessages,
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
