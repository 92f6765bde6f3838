// The rules every client of the service follows, core's (session token, in the browser) and the
// server's (API key): where each operation lives, what an HTTP error answer means, and how long to
// wait before trying again.
import { isPaySessionErrorCode, type PaySessionErrorCode } from './codes.js'
import { isPaySessionError, PaySessionError } from './errors.js'
import { isPlainId } from './ids.js'

/** The service's operations, each under the path form the spec shows for it first. */
export type ServiceOperation =
  | 'createSession'
  | 'getSession'
  | 'listSessions'
  | 'reportFunding'
  | 'createCapture'
  | 'getCapture'

const sessions = '/payment-sessions'

function segment(value: unknown, name: string): string {
  if (isPlainId(value)) return encodeURIComponent(value)
  throw new PaySessionError('INVALID_REQUEST', {
    shortMessage: `The ${name} is not a valid id.`,
    details: `${name} must be a non-empty string other than "." and "..", got ${JSON.stringify(value)}.`,
  })
}

/**
 * The two paths of an operation: the form the spec shows for it, then the other one (the spec
 * shows both, with and without `/api/v1`, section 9). A client tries the second only when the
 * first answers a 404 that is not JSON (`isUnknownRoute`): a route this service does not have.
 * An id that is not a plain URL step ({@link isPlainId}) throws `INVALID_REQUEST`.
 * @example servicePaths('getSession', { sessionId: 'ps_1' }) // ['/payment-sessions/ps_1', '/api/v1/payment-sessions/ps_1']
 */
export function servicePaths(
  operation: ServiceOperation,
  ids: { sessionId?: string; captureId?: string } = {},
): readonly [string, string] {
  const session = () => `${sessions}/${segment(ids.sessionId, 'sessionId')}`
  const path = {
    createSession: () => sessions,
    getSession: session,
    listSessions: () => sessions,
    reportFunding: () => `${session()}/funding-transaction`,
    createCapture: () => `${session()}/captures`,
    getCapture: () => `${session()}/captures/${segment(ids.captureId, 'captureId')}`,
  }[operation]()
  // The spec shows these under /api/v1; create and get session without it.
  const prefixedFirst = operation !== 'createSession' && operation !== 'getSession'
  return prefixedFirst ? [`/api/v1${path}`, path] : [path, `/api/v1${path}`]
}

/** A 404 without a JSON body: the service has no such route (try the other path form). */
export const isUnknownRoute = (status: number, contentType: string | null | undefined): boolean =>
  status === 404 && !/\bjson\b/i.test(contentType ?? '')

/** What a 404 means, by the resource the path names. */
export type ServiceResource = 'session' | 'capture' | 'other'

const notFound: Record<ServiceResource, PaySessionErrorCode> = {
  session: 'SESSION_NOT_FOUND',
  capture: 'CAPTURE_NOT_FOUND',
  other: 'NOT_FOUND',
}

const byStatus: Record<number, PaySessionErrorCode> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'INVALID_REQUEST',
}

/** Answers worth trying again unchanged: the service is down, slow or busy. */
export const isRetryableStatus = (status: number): boolean =>
  status >= 500 || status === 408 || status === 429

/**
 * The code of an HTTP error answer (docs/errors.md, "From HTTP answers"): 5xx, 408 and 429 are
 * `API_UNAVAILABLE` whatever they say; otherwise the service's own `error.code` when it is one of
 * the SDK's codes; otherwise by status: 400 and 422 `INVALID_REQUEST`, 401 `UNAUTHORIZED`, 403
 * `FORBIDDEN`, 404 the resource's `*_NOT_FOUND`, 405, 413, 415 their codes, anything else
 * `API_ERROR`.
 * @example serviceErrorCode(404, undefined, 'session') // 'SESSION_NOT_FOUND'
 */
export function serviceErrorCode(
  status: number,
  serviceCode: string | undefined,
  resource: ServiceResource = 'other',
): PaySessionErrorCode {
  if (isRetryableStatus(status)) return 'API_UNAVAILABLE'
  if (isPaySessionErrorCode(serviceCode)) return serviceCode
  if (status === 404) return notFound[resource]
  return byStatus[status] ?? 'API_ERROR'
}

/** The `{ error: { code, message } }` of an error answer, when it has one. */
export function serviceErrorBody(body: unknown): { code?: string; message?: string } {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null | undefined)
    ?.error
  return {
    ...(typeof error?.code === 'string' ? { code: error.code } : {}),
    ...(typeof error?.message === 'string' ? { message: error.message } : {}),
  }
}

/** Exponential backoff: the first delay, its ceiling, and how random each wait is. */
export type Backoff = {
  /** First delay (ms); doubles per failure. */
  retryDelay: number
  /** Upper bound of one delay (ms). */
  maxRetryDelay: number
  /**
   * 0 to 1: each delay is drawn from backoff × [1 − jitter, 1] (full jitter at 1), so clients
   * that failed together do not retry together. 0 is exact.
   */
  jitter: number
}

/**
 * The wait before retry number `failureCount + 1` (0 is the first retry): `retryDelay` doubled
 * per failure, capped at `maxRetryDelay`, minus a random part of `jitter`.
 * @example backoffDelay({ retryDelay: 250, maxRetryDelay: 4_000, jitter: 0.5 }, 2) // 500 to 1000
 */
export function backoffDelay(backoff: Backoff, failureCount: number): number {
  const ceiling = Math.min(backoff.retryDelay * 2 ** failureCount, backoff.maxRetryDelay)
  return Math.round(ceiling * (1 - backoff.jitter * Math.random()))
}

/**
 * The codes by which the service refuses a credential for a session (expired, not valid, another
 * session's): not an outage, and not the session's end. A fresh credential may still read it.
 */
export type TokenRefusedCode = Extract<
  PaySessionErrorCode,
  'SESSION_TOKEN_EXPIRED' | 'UNAUTHORIZED' | 'FORBIDDEN'
>
export const tokenRefusedCodes: readonly TokenRefusedCode[] = [
  'SESSION_TOKEN_EXPIRED',
  'UNAUTHORIZED',
  'FORBIDDEN',
]

/** Whether `error` is the service refusing a credential (`tokenRefusedCodes`). */
export const isTokenRefused = (error: unknown): error is PaySessionError<TokenRefusedCode> =>
  isPaySessionError(error, ...tokenRefusedCodes)
