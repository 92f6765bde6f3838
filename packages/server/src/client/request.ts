import {
  type Backoff,
  backoffDelay,
  type Clock,
  isUnknownRoute,
  type ServiceResource,
  serviceErrorBody,
  serviceErrorCode,
  sleep,
} from '@paysession/protocol'
import { merchantError, type PaySessionError } from '../errors/index.js'

/** Backoff for the calls that are safe to repeat (the names of core's `polling`). */
export type RetryOptions = Partial<Backoff> & {
  /** Further attempts after the first. Default 3. */
  retries?: number
}

export type Transport = {
  /** Base URL without a trailing slash and without `/api/v1`. */
  root: string
  apiKey: string
  fetch: typeof globalThis.fetch
  retry: Required<RetryOptions>
  requestTimeout: number
  /** Where the retries' waits get their time (protocol's timing toolkit). */
  clock: Clock
}

export type ApiRequest = {
  method: 'GET' | 'POST'
  /** The operation's two path forms (protocol's `servicePaths`): the second after an unknown route. */
  paths: readonly [string, string]
  body?: Record<string, unknown>
  /** Overrides the API key, e.g. with a session token. */
  credential?: string
  /** What a 404 without a code of its own means. */
  resource?: ServiceResource
}

/** Between a quarter of a second and four seconds, between half and the full delay. */
export const defaultRetry: Required<RetryOptions> = {
  retries: 3,
  retryDelay: 250,
  maxRetryDelay: 4000,
  jitter: 0.5,
}

/**
 * A request is retried only when repeating it cannot do anything twice: a GET, or
 * a request whose body carries an idempotency key.
 */
export function isRetryable(request: Pick<ApiRequest, 'method' | 'body'>): boolean {
  return request.method === 'GET' || typeof request.body?.['requestId'] === 'string'
}

type Answer = { status: number; text: string; json: unknown; isJson: boolean; type: string | null }

async function send(transport: Transport, request: ApiRequest, path: string): Promise<Answer> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${request.credential ?? transport.apiKey}`,
  }
  const init: RequestInit = {
    method: request.method,
    headers,
    signal: AbortSignal.timeout(transport.requestTimeout),
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
  // An unknown route is a 404 whose body is not JSON, whatever its content type says.
  const type = isJson ? 'application/json' : null
  return { status: response.status, text, json, isJson, type }
}

/** Turns an error answer `{ error: { code, message } }` (or anything else) back into an error. */
function errorFromAnswer(answer: Answer, request: ApiRequest, path: string): PaySessionError {
  const { code: serviceCode, message } = serviceErrorBody(answer.json)
  const code = serviceErrorCode(answer.status, serviceCode, request.resource)
  return merchantError(code, {
    // Here the credential refused is the merchant's API key, not a customer's payment link.
    ...(code === 'UNAUTHORIZED' && !request.credential
      ? { shortMessage: 'The API key is missing or not recognised.' }
      : {}),
    status: answer.status,
    details:
      message ??
      `${request.method} ${path} answered ${answer.status}${answer.text ? `: ${answer.text.slice(0, 200)}` : ''}`,
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
  let path = request.paths[0]
  let triedAlternate = false
  let attempt = 0
  for (;;) {
    let answer: Answer
    try {
      answer = await send(transport, request, path)
    } catch (cause) {
      if (attempt < retries) {
        await sleep(transport.clock, backoffDelay(transport.retry, attempt++))
        continue
      }
      throw merchantError('API_UNAVAILABLE', {
        details: `${request.method} ${path} failed after ${attempt + 1} attempt(s): ${cause instanceof Error ? cause.message : String(cause)}`,
        cause,
      })
    }
    if (answer.status >= 500 && attempt < retries) {
      await sleep(transport.clock, backoffDelay(transport.retry, attempt++))
      continue
    }
    if (isUnknownRoute(answer.status, answer.type) && !triedAlternate) {
      // The service may serve this operation only under the other path form.
      triedAlternate = true
      path = request.paths[1]
      continue
    }
    if (answer.status < 200 || answer.status >= 300) throw errorFromAnswer(answer, request, path)
    if (!answer.isJson) {
      throw merchantError('INVALID_RESPONSE', {
        status: answer.status,
        details: `${request.method} ${path} answered ${answer.status} without a JSON body.`,
      })
    }
    return answer.json
  }
}
