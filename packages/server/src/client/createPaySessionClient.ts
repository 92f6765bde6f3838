import { absoluteApiBase, isPlainId, servicePaths } from '@paysession/protocol'
import { assertAmount } from '../amounts.js'
import { merchantError } from '../errors/index.js'
import { browserMessage, isBrowser } from '../guard.js'
import { parseCapture, parseCreatedSession, parseSession, parseSessionList } from './parse.js'
import { defaultRetry, type RetryOptions, request, type Transport } from './request.js'
import type { Capture, CreatedPaymentSession, PaymentSession } from './types.js'

export type PaySessionClientOptions = {
  /**
   * The environment's base URL, with or without `/api/v1`. Production and sandbox
   * each have their own; this package knows neither, so pass it from configuration.
   * The same name as `@paysession/core`'s `apiBase`.
   */
  apiBase: string
  /** The merchant API key. It must stay on the server. */
  apiKey: string
  /** Defaults to the global fetch. */
  fetch?: typeof globalThis.fetch
  /** Backoff for calls that are safe to repeat, or `false` to never retry. */
  retry?: RetryOptions | false
  /** Time limit of one attempt in ms. Default 30 000. The same name as in `@paysession/core`. */
  requestTimeout?: number
  /**
   * Allow the client in a browser page. Off by default: a page's code reaches every visitor,
   * and the API key with it. Only for a page that is itself a simulation with a key that
   * opens nothing else (the hosted demo).
   */
  dangerouslyAllowBrowser?: boolean
}

export type CreateSessionParameters = {
  /** Decimal string, e.g. "12.50". Numbers are refused. */
  amount: string
  /** Currency code, e.g. "USD". */
  currency: string
  /**
   * Idempotency key. Generated when omitted; store it with your order to make a
   * retried checkout reuse the same session. `null` sends none, and the call is
   * then never retried.
   */
  requestId?: string | null
}

export type CreateCaptureParameters = {
  /** Decimal string, at most the session's capturable amount. */
  captureAmount: string
  /** Refund the rest to the customer and settle the session. Default false. */
  isFinalCapture?: boolean
  /** Idempotency key. Generated when omitted. */
  requestId?: string
}

/** A capture as create capture answers it, with the idempotency key that was sent. */
export type CreatedCapture = Capture & { requestId: string }

export type GetSessionOptions = {
  /** Read with the session token instead of the API key (the spec's form of this call). */
  sessionToken?: string
}

export type PaySessionClient = {
  /** POST /payment-sessions. Status right after creation is CREATED or PENDING (or absent). */
  createSession(parameters: CreateSessionParameters): Promise<CreatedPaymentSession>
  /** GET /payment-sessions/{id}. */
  getSession(sessionId: string, options?: GetSessionOptions): Promise<PaymentSession>
  /** GET /api/v1/payment-sessions, newest first (sandbox extension). */
  listSessions(): Promise<PaymentSession[]>
  /** POST /api/v1/payment-sessions/{id}/captures. Only a FUNDED session can be captured. */
  createCapture(sessionId: string, parameters: CreateCaptureParameters): Promise<CreatedCapture>
  /** GET /api/v1/payment-sessions/{id}/captures/{captureId}. */
  getCapture(sessionId: string, captureId: string): Promise<Capture>
}

/** An id that goes into a URL with the API key: never one that becomes `.` or `..` there. */
function segment(value: unknown, name: string): asserts value is string {
  if (!isPlainId(value)) {
    throw merchantError('INVALID_REQUEST', {
      details: `${name} must be a non-empty string other than "." and "..", got ${JSON.stringify(value)}.`,
    })
  }
}

function requestIdOf(value: unknown): string {
  if (value === undefined) return globalThis.crypto.randomUUID()
  if (typeof value !== 'string' || value === '' || value.length > 255) {
    throw merchantError('INVALID_REQUEST_ID', {
      details: 'requestId must be a non-empty string of at most 255 characters.',
    })
  }
  return value
}

/**
 * Creates the merchant-side client for the API-key operations.
 *
 * @example
 * const client = createPaySessionClient({
 *   apiBase: process.env.PAYSESSION_API_URL!,
 *   apiKey: process.env.PAYSESSION_API_KEY!,
 * })
 * const session = await client.createSession({ amount: '25.00', currency: 'USD' })
 */
export function createPaySessionClient(options: PaySessionClientOptions): PaySessionClient {
  if (typeof options.apiKey !== 'string' || options.apiKey === '') {
    throw merchantError('INVALID_CONFIG', { details: 'apiKey is required.' })
  }
  if (isBrowser() && options.dangerouslyAllowBrowser !== true) {
    throw merchantError('INVALID_CONFIG', { shortMessage: browserMessage })
  }
  const given = options.fetch ?? globalThis.fetch
  if (typeof given !== 'function') {
    throw merchantError('INVALID_CONFIG', { details: 'No fetch available; pass one.' })
  }
  // Called unbound: Workers refuse a global fetch called as another object's method.
  const fetch: typeof globalThis.fetch = (input, init) => given(input, init)
  const transport: Transport = {
    root: absoluteApiBase(options.apiBase),
    apiKey: options.apiKey,
    fetch,
    retry:
      options.retry === false
        ? { ...defaultRetry, retries: 0 }
        : { ...defaultRetry, ...options.retry },
    requestTimeout: options.requestTimeout ?? 30_000,
  }

  return {
    async createSession(parameters) {
      assertAmount(parameters.amount, 'amount')
      if (
        typeof parameters.currency !== 'string' ||
        !/^[A-Za-z]{3,12}$/.test(parameters.currency)
      ) {
        throw merchantError('INVALID_REQUEST', {
          details: `currency must be a currency code such as "USD", got ${JSON.stringify(parameters.currency)}.`,
        })
      }
      const requestId = parameters.requestId === null ? null : requestIdOf(parameters.requestId)
      const body: Record<string, unknown> = {
        amount: parameters.amount,
        currency: parameters.currency,
      }
      if (requestId !== null) body['requestId'] = requestId
      const answer = await request(transport, {
        method: 'POST',
        paths: servicePaths('createSession'),
        body,
      })
      return parseCreatedSession(answer, requestId)
    },

    async getSession(sessionId, getOptions = {}) {
      segment(sessionId, 'sessionId')
      const answer = await request(transport, {
        method: 'GET',
        paths: servicePaths('getSession', { sessionId }),
        resource: 'session',
        ...(getOptions.sessionToken ? { credential: getOptions.sessionToken } : {}),
      })
      return parseSession(answer)
    },

    async listSessions() {
      const answer = await request(transport, {
        method: 'GET',
        paths: servicePaths('listSessions'),
      })
      return parseSessionList(answer)
    },

    async createCapture(sessionId, parameters) {
      segment(sessionId, 'sessionId')
      assertAmount(parameters.captureAmount, 'captureAmount')
      if (
        parameters.isFinalCapture !== undefined &&
        typeof parameters.isFinalCapture !== 'boolean'
      ) {
        throw merchantError('INVALID_REQUEST', {
          details: 'isFinalCapture must be a boolean.',
        })
      }
      const requestId = requestIdOf(parameters.requestId)
      const answer = await request(transport, {
        method: 'POST',
        paths: servicePaths('createCapture', { sessionId }),
        resource: 'session',
        body: {
          requestId,
          captureAmount: parameters.captureAmount,
          // The spec names the flag isFinalCapture, the quickstart finalCapture: a service that
          // reads only the other name would otherwise capture without refunding the rest.
          isFinalCapture: parameters.isFinalCapture ?? false,
          finalCapture: parameters.isFinalCapture ?? false,
        },
      })
      return { ...parseCapture(answer), requestId }
    },

    async getCapture(sessionId, captureId) {
      segment(sessionId, 'sessionId')
      segment(captureId, 'captureId')
      const answer = await request(transport, {
        method: 'GET',
        paths: servicePaths('getCapture', { sessionId, captureId }),
        resource: 'capture',
      })
      return parseCapture(answer)
    },
  }
}
