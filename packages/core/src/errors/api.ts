import { PaySessionError, type PaySessionErrorCode } from './base.js'

/** Codes the service may answer that keep their meaning in the SDK. */
const passThrough = new Set<string>([
  'SESSION_TOKEN_EXPIRED',
  'SESSION_NOT_FOUND',
  'SESSION_NOT_PAYABLE',
  'TRANSACTION_DOES_NOT_FUND_SESSION',
  'TRANSACTION_REVERTED',
  'INVALID_TRANSACTION_HASH',
  'INVALID_AMOUNT',
])

/** Turns an HTTP error answer `{ error: { code, message } }` (or anything else) into an error. */
export function apiError(status: number, body: unknown): PaySessionError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error
  const serverCode = typeof error?.code === 'string' ? error.code : undefined
  const serverMessage = typeof error?.message === 'string' ? error.message : undefined
  const details = [`HTTP ${status}`, serverCode, serverMessage].filter(Boolean).join(' ')

  let code: PaySessionErrorCode
  if (serverCode && passThrough.has(serverCode)) code = serverCode as PaySessionErrorCode
  else if (status === 401 || status === 403) code = 'UNAUTHORIZED'
  else if (status === 404) code = 'SESSION_NOT_FOUND'
  else if (status === 408 || status === 429 || status >= 500) code = 'API_UNAVAILABLE'
  else code = 'API_ERROR'
  return new PaySessionError(code, { status, details })
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
