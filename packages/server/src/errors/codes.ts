/**
 * Every stable error code this package can produce. A code's meaning never changes.
 *
 * Service codes are the ones the service answers with (README.md ("Where the spec says not shown"));
 * client codes are raised by this package itself. The names are shared with
 * `@paysession/core`.
 */
export const paySessionErrorCodes = [
  // Service answers (README.md ("Where the spec says not shown"), "Errors"). A 5xx answer, INTERNAL
  // included, becomes API_UNAVAILABLE with the service's code in `serviceCode`.
  'MALFORMED_JSON',
  'INVALID_REQUEST',
  'UNAUTHORIZED',
  'SESSION_TOKEN_EXPIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'SESSION_NOT_FOUND',
  'CAPTURE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'IDEMPOTENCY_CONFLICT',
  'SESSION_NOT_CAPTURABLE',
  'SESSION_NOT_PAYABLE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_AMOUNT',
  'UNSUPPORTED_CURRENCY',
  'INVALID_TRANSACTION_HASH',
  'AMOUNT_EXCEEDS_CAPTURABLE',
  'TRANSACTION_DOES_NOT_FUND_SESSION',
  'TRANSACTION_REVERTED',
  'INVALID_REQUEST_ID',
  // Raised by this package
  'API_UNAVAILABLE',
  'INVALID_RESPONSE',
  'INVALID_CONFIG',
  'TIMEOUT',
  'API_ERROR',
] as const

export type PaySessionErrorCode = (typeof paySessionErrorCodes)[number]

const known = new Set<string>(paySessionErrorCodes)

export function isPaySessionErrorCode(value: unknown): value is PaySessionErrorCode {
  return typeof value === 'string' && known.has(value)
}

/** A sentence safe to show a customer or a merchant's operator, per code. */
export const shortMessages: Record<PaySessionErrorCode, string> = {
  MALFORMED_JSON: 'The request body was not valid JSON.',
  INVALID_REQUEST: 'The request was missing a field or had a field of the wrong type.',
  UNAUTHORIZED: 'The API key is missing or not recognised.',
  SESSION_TOKEN_EXPIRED: 'The payment session token has expired.',
  FORBIDDEN: 'This credential may not perform this operation.',
  NOT_FOUND: 'The requested resource does not exist.',
  SESSION_NOT_FOUND: 'The payment session does not exist.',
  CAPTURE_NOT_FOUND: 'The capture does not exist.',
  METHOD_NOT_ALLOWED: 'This operation does not accept that HTTP method.',
  IDEMPOTENCY_CONFLICT: 'This requestId was already used with a different request.',
  SESSION_NOT_CAPTURABLE: 'The payment session cannot be captured in its current status.',
  SESSION_NOT_PAYABLE: 'The payment session can no longer be paid.',
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'The request body must be application/json.',
  INVALID_AMOUNT: 'The amount must be a positive decimal string such as "12.50".',
  UNSUPPORTED_CURRENCY: 'The currency is not supported.',
  INVALID_TRANSACTION_HASH: 'The transaction hash is not valid.',
  AMOUNT_EXCEEDS_CAPTURABLE: 'The capture amount exceeds what can still be captured.',
  TRANSACTION_DOES_NOT_FUND_SESSION: 'The transaction does not fund this payment session.',
  TRANSACTION_REVERTED: 'The transaction reverted.',
  INVALID_REQUEST_ID: 'The requestId is not valid.',
  API_UNAVAILABLE: 'The payment service could not be reached. Please try again.',
  INVALID_RESPONSE: 'The payment service answered with an unexpected response.',
  INVALID_CONFIG: 'The payment client is not configured correctly.',
  TIMEOUT: 'The operation did not complete in time.',
  API_ERROR: 'The payment service refused the request.',
}
