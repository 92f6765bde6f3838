import {
  isPaySessionErrorCode,
  merchantError,
  type PaySessionError,
  type PaySessionErrorCode,
} from '../errors/index.js'

/** Backoff for the calls that are safe to repeat. */
export type RetryOptions = {
  /** Further attempts after the first. Default 3. */
  retries?: number
  /** Delay before the first retry; doubles each time. Default 250 ms. */
  baseDelayMs?: number
  /** Upper bound of one delay. Default 4000 ms. */
  maxDelayMs?: number
}

export type Transport = {
  /** Base URL without a trailing slash and without `/api/v1`. */
  root: string
  apiKey: string
  fetch: typeof globalThis.fetch
  retry: Required<RetryOptions>
  timeoutMs: number
}

export type ApiRequest = {
  method: 'GET' | 'POST'
  /** The path as the spec shows it for this operation. */
  path: string
  /** The other path form, tried once when the first answers a 404 that is not JSON. */
  alternatePath: string
  body?: Record<string, unknown>
  /** Overrides the API key, e.g. with a session token. */
  credential?: string
  /** The code for a 404 that carries no code of its own. */
  notFoundCode?: PaySessionErrorCode
}

export const defaultRetry: Required<RetryOptions> = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 4000,
}

/**
 * A request is retried only when repeating it cannot do anything twice: a GET, or
 * a request whose body carries an idempotency key.
 */
export function isRetryable(request: Pick<ApiRequest, 'method' | 'body'>): boolean {
  return request.method === 'GET' || typeof request.body?.['requestId'] === 'string'
}

function backoff(retry: Required<RetryOptions>, attempt: number): number {
  const exponential = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt)
  // Jitter between half and the full delay, so many clients do not retry in step.
  return exponential / 2 + Math.random() * (exponential / 2)
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

type Answer = { status: number; text: string; json: unknown; isJson: boolean }

async function send(transport: Transport, request: ApiRequest, path: string): Promise<Answer> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${request.credential ?? transport.apiKey}`,
  }
  const init: RequestInit = {
    method: request.method,
    headers,
    signal: AbortSignal.timeout(transport.timeoutMs),
  }
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json'
    init.body = JSON.stringify(request.body)
  }
  const response = await transport.fetch(`${transport.root}${path}`, init)
  const text = await response.text()
  let json: unknown
  let isJson = false
  if (text !== '') {
    try {
      json = JSON.parse(text)
      isJson = true
    } catch {
      // Not JSON: a proxy's error page, or a route the service does not have.
    }
  }
  return { status: response.status, text, json, isJson }
}

function codeForStatus(status: number, notFoundCode: PaySessionErrorCode): PaySessionErrorCode {
  if (status >= 500 || status === 408 || status === 429) return 'API_UNAVAILABLE'
  switch (status) {
    case 400:
      return 'INVALID_REQUEST'
    case 401:
      return 'UNAUTHORIZED'
    case 403:
      return 'FORBIDDEN'
    case 404:
      return notFoundCode
    case 405:
      return 'METHOD_NOT_ALLOWED'
    case 413:
      return 'PAYLOAD_TOO_LARGE'
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE'
    case 422:
      return 'INVALID_REQUEST'
    default:
      return 'API_ERROR'
  }
}

/** Turns an error answer `{ error: { code, message } }` (or anything else) back into an error. */
function errorFromAnswer(answer: Answer, request: ApiRequest): PaySessionError {
  const error =
    answer.isJson && typeof answer.json === 'object' && answer.json !== null
      ? (answer.json as { error?: { code?: unknown; message?: unknown } }).error
      : undefined
  const serviceCode = typeof error?.code === 'string' ? error.code : undefined
  const message = typeof error?.message === 'string' ? error.message : undefined
  const fallback = codeForStatus(answer.status, request.notFoundCode ?? 'NOT_FOUND')
  const code =
    answer.status < 500 && serviceCode !== undefined && isPaySessionErrorCode(serviceCode)
      ? serviceCode
      : fallback
  return merchantError(code, {
    // Here the credential refused is the merchant's API key, not a customer's payment link.
    ...(code === 'UNAUTHORIZED' && !request.credential
      ? { shortMessage: 'The API key is missing or not recognised.' }
      : {}),
    status: answer.status,
    details:
      message ??
      `${request.method} ${request.path} answered ${answer.status}${answer.text ? `: ${answer.text.slice(0, 200)}` : ''}`,
    ...(serviceCode !== undefined && serviceCode !== code ? { serviceCode } : {}),
  })
}

/**
 * Sends one API call: retries network errors and 5xx answers with exponential
 * backoff when the call is safe to repeat, falls back once to the other path
 * form, and returns the parsed JSON body of a 2xx answer.
 */
export async function request(transport: Transport, request: ApiRequest): Promise<unknown> {
  const retries = isRetryable(request) ? transport.retry.retries : 0
  let path = request.path
  let triedAlternate = false
  let attempt = 0
  for (;;) {
    let answer: Answer
    try {
      answer = await send(transport, request, path)
    } catch (cause) {
      if (attempt < retries) {
        await sleep(backoff(transport.retry, attempt++))
        continue
      }
      throw merchantError('API_UNAVAILABLE', {
        details: `${request.method} ${path} failed after ${attempt + 1} attempt(s): ${cause instanceof Error ? cause.message : String(cause)}`,
        cause,
      })
    }
    if (answer.status >= 500 && attempt < retries) {
      await sleep(backoff(transport.retry, attempt++))
      continue
    }
    if (answer.status === 404 && !answer.isJson && !triedAlternate) {
      // The service may serve this operation only under the other path form.
      triedAlternate = true
      path = request.alternatePath
      continue
    }
    if (answer.status < 200 || answer.status >= 300)
      throw errorFromAnswer(answer, { ...request, path })
    if (!answer.isJson) {
      throw merchantError('INVALID_RESPONSE', {
        status: answer.status,
        details: `${request.method} ${path} answered ${answer.status} without a JSON body.`,
      })
    }
    return answer.json
  }
}
