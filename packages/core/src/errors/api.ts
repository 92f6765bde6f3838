import {
  customerMessages,
  isTokenRefused,
  serviceErrorBody,
  serviceErrorCode,
} from '@paysession/protocol'
import { PaySessionError } from './base.js'

/**
 * The codes a call to the service's session-token endpoints ends with (docs/errors.md, "From HTTP
 * answers"): the mapping's, the service's own for these endpoints, a response the SDK cannot read,
 * and an abort. Its own code, when the service's differs, is kept as `serviceCode`.
 */
export type ApiErrorCode =
  | 'API_UNAVAILABLE'
  | 'API_ERROR'
  | 'INVALID_RESPONSE'
  | 'ABORTED'
  | 'INVALID_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'SESSION_TOKEN_EXPIRED'
  | 'SESSION_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'MALFORMED_JSON'
  | 'SESSION_EXPIRED'
  | 'SESSION_NOT_PAYABLE'
  | 'TRANSACTION_DOES_NOT_FUND_SESSION'
  | 'TRANSACTION_REVERTED'
  | 'INVALID_TRANSACTION_HASH'
  | 'CHAIN_UNAVAILABLE'

/**
 * Turns an HTTP error answer `{ error: { code, message } }` (or anything else) into an error, by
 * the protocol's one mapping (`serviceErrorCode`; every call here names a session).
 */
export function apiError(status: number, body: unknown): PaySessionError<ApiErrorCode> {
  const { code: serviceCode, message } = serviceErrorBody(body)
  // The service answers these endpoints with the codes above; the type names them for callers.
  const code = serviceErrorCode(status, serviceCode, 'session') as ApiErrorCode
  const details = [`HTTP ${status}`, serviceCode, message].filter(Boolean).join(' ')
  return new PaySessionError(code, {
    status,
    details,
    // A session token refused for this session reads, to a customer, as a link that is not valid.
    ...(code === 'FORBIDDEN' ? { shortMessage: customerMessages.UNAUTHORIZED } : {}),
    ...(serviceCode !== undefined && serviceCode !== code ? { serviceCode } : {}),
  })
}

/** Network failure or time-out before any answer. */
export function unreachableError(cause: unknown): PaySessionError<'API_UNAVAILABLE'> {
  const timedOut = (cause as { name?: string })?.name === 'TimeoutError'
  return new PaySessionError('API_UNAVAILABLE', {
    details: timedOut ? 'request timed out' : String((cause as Error)?.message ?? cause),
    cause,
  })
}

/** Errors worth retrying: the request may succeed later without any change. */
export function isRetryableApiError(error: unknown): boolean {
  return error instanceof PaySessionError && error.code === 'API_UNAVAILABLE'
}

/** The service refused the session token: expired, or not (or no longer) valid for this session. */
export { isTokenRefused }
