import { customerMessages, serviceErrorBody, serviceErrorCode } from '@paysession/protocol'
import { PaySessionError } from './base.js'

/**
 * Turns an HTTP error answer `{ error: { code, message } }` (or anything else) into an error, by
 * the protocol's one mapping (`serviceErrorCode`; every call here names a session).
 */
export function apiError(status: number, body: unknown): PaySessionError {
  const { code: serviceCode, message } = serviceErrorBody(body)
  const code = serviceErrorCode(status, serviceCode, 'session')
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
export function unreachableError(cause: unknown): PaySessionError {
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
export const isTokenRefused = (error: unknown): boolean =>
  error instanceof PaySessionError &&
  ['SESSION_TOKEN_EXPIRED', 'UNAUTHORIZED', 'FORBIDDEN'].includes(error.code)
