import {
  BodyTooLargeError,
  type Clock,
  jsonResponse,
  readBody,
  systemClock,
} from '@paysession/protocol'
import { parseSessionStatus } from '../client/parse.js'
import { merchantError } from '../errors/index.js'
import { createMemoryDedupeStore, dedupeKey, type WebhookDedupeStore } from './dedupe.js'
import { assertToleranceSeconds, signatureHeader, verifyWebhookSignature } from './signature.js'
import type { PaymentStatusUpdateEvent, WebhookRejection, WebhookRejectionReason } from './types.js'

export type WebhookHandlerOptions = {
  /**
   * The shared secret the service signs with (the sandbox's
   * `PAYSESSION_WEBHOOK_SECRET`). Unsigned or wrongly signed requests are
   * refused with 401. Required unless `insecureNoSignature` is `true`: a
   * missing or empty secret throws `INVALID_CONFIG` when the handler is created,
   * so an unset environment variable stops the server instead of silently
   * accepting anyone's updates.
   */
  secret?: string | undefined
  /**
   * Accept unsigned updates (for a service that does not sign). Every event then
   * has `verified: false`: confirm it with {@link confirmStatus} before acting.
   * Cannot be combined with `secret`.
   */
  insecureNoSignature?: boolean
  /**
   * Accepted age of a signature: whole seconds from 1 to 3600. Default 300. NaN, Infinity, a
   * fraction or a value out of range throws `INVALID_CONFIG` when the handler is created.
   */
  toleranceSeconds?: number
  /** What a signature's age is measured against: protocol's `Clock`. Default `systemClock`. */
  clock?: Clock
  /**
   * Called once per delivery `id`. When it throws, the handler answers 500 so
   * the service delivers again (at-least-once).
   */
  onEvent: (event: PaymentStatusUpdateEvent, context: { request: Request }) => void | Promise<void>
  /** Where handled ids are remembered. Default: an in-memory LRU of 10 000 ids. `false` disables. */
  dedupe?: WebhookDedupeStore | false
  /** Called for a delivery that was already handled (acknowledged without `onEvent`). */
  onDuplicate?: (event: PaymentStatusUpdateEvent) => void
  /** Called for every refused request, e.g. to log it. */
  onRejected?: (rejection: WebhookRejection, context: { request: Request }) => void
  /** Largest accepted body. Default 64 KiB. */
  maxBodyBytes?: number
}

/** A web-standard handler: a Fetch `Request` in, a `Response` out. */
export type WebhookHandler = (request: Request) => Promise<Response>

type Id = string | number | null

const methodSuffix = '_paymentStatusUpdate'

/** How long one instance holds a delivery it handles before another may (a holder that died). */
const handlingLeaseMs = 60_000

const jsonRpcCodes: Record<WebhookRejectionReason, number> = {
  METHOD_NOT_ALLOWED: -32600,
  PAYLOAD_TOO_LARGE: -32600,
  MISSING_SIGNATURE: -32001,
  MALFORMED_SIGNATURE: -32001,
  STALE_TIMESTAMP: -32001,
  SIGNATURE_MISMATCH: -32001,
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  HANDLER_ERROR: -32603,
  HANDLER_BUSY: -32603,
}

const httpStatuses: Record<WebhookRejectionReason, number> = {
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  MISSING_SIGNATURE: 401,
  MALFORMED_SIGNATURE: 401,
  STALE_TIMESTAMP: 401,
  SIGNATURE_MISMATCH: 401,
  PARSE_ERROR: 400,
  INVALID_REQUEST: 400,
  METHOD_NOT_FOUND: 400,
  INVALID_PARAMS: 400,
  HANDLER_ERROR: 500,
  HANDLER_BUSY: 409,
}

const signatureMessages = {
  MISSING_SIGNATURE: `Missing ${signatureHeader} header.`,
  MALFORMED_SIGNATURE: `Malformed ${signatureHeader} header.`,
  STALE_TIMESTAMP: 'Signature timestamp outside the tolerance.',
  SIGNATURE_MISMATCH: 'Signature does not match.',
} as const

/** The acknowledgement the spec requires, with the request's id. */
function acknowledge(id: string | number): Response {
  return jsonResponse(200, { jsonrpc: '2.0', result: 'ok', id })
}

class Rejected {
  constructor(
    readonly reason: WebhookRejectionReason,
    readonly message: string,
    readonly id: Id = null,
    readonly error?: unknown,
  ) {}
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

function parseEvent(body: unknown, verified: boolean): PaymentStatusUpdateEvent {
  if (!isObject(body))
    throw new Rejected('INVALID_REQUEST', 'Body is not a JSON-RPC request object.')
  const rawId = body['id']
  const id: Id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null
  if (body['jsonrpc'] !== '2.0') throw new Rejected('INVALID_REQUEST', 'jsonrpc must be "2.0".', id)
  if (id === null || id === '') {
    throw new Rejected('INVALID_REQUEST', 'id must be a non-empty string or a number.', null)
  }
  const method = body['method']
  if (typeof method !== 'string') throw new Rejected('INVALID_REQUEST', 'method is missing.', id)
  if (!method.endsWith(methodSuffix) || method.length === methodSuffix.length) {
    throw new Rejected('METHOD_NOT_FOUND', `Method ${JSON.stringify(method)} not found.`, id)
  }
  const params = body['params']
  if (!Array.isArray(params) || params.length !== 1 || !isObject(params[0])) {
    throw new Rejected('INVALID_PARAMS', 'params must be an array holding one object.', id)
  }
  const update = params[0]
  for (const field of ['merchantId', 'paymentSessionId', 'status', 'updatedAt'] as const) {
    if (!nonEmpty(update[field]))
      throw new Rejected('INVALID_PARAMS', `params[0].${field} is missing.`, id)
  }
  if (Number.isNaN(Date.parse(update['updatedAt'] as string))) {
    throw new Rejected('INVALID_PARAMS', 'params[0].updatedAt is not an ISO 8601 timestamp.', id)
  }
  let status: PaymentStatusUpdateEvent['status']
  try {
    status = parseSessionStatus(update['status'])
  } catch {
    throw new Rejected(
      'INVALID_PARAMS',
      `params[0].status ${JSON.stringify(update['status'])} is unknown.`,
      id,
    )
  }
  return {
    id,
    method,
    merchantId: update['merchantId'] as string,
    paymentSessionId: update['paymentSessionId'] as string,
    status,
    updatedAt: update['updatedAt'] as string,
    verified,
  }
}

async function readLimitedBody(request: Request, maxBodyBytes: number): Promise<Uint8Array> {
  try {
    return await readBody(request, maxBodyBytes)
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new Rejected('PAYLOAD_TOO_LARGE', 'Body too large.')
    throw error
  }
}

/**
 * Creates the webhook endpoint for payment status updates: a function from a Fetch
 * `Request` to a `Response`, usable from any framework (see {@link toNodeListener}
 * for `node:http`, Express and the like).
 *
 * It verifies the `Paysession-Signature` with `secret` (required unless
 * `insecureNoSignature: true`; a missing one throws `INVALID_CONFIG`), validates the
 * JSON-RPC 2.0 request, skips deliveries it already handled (by `id`), calls
 * `onEvent`, and answers `200 {"jsonrpc":"2.0","result":"ok","id":…}`.
 *
 * The spec shows no signing for the real service; the signature is a sandbox
 * extension. Treat an event as a hint and confirm the session's status with
 * {@link confirmStatus} (a get-session call) before shipping goods.
 *
 * @example
 * const handler = createWebhookHandler({
 *   secret: process.env.PAYSESSION_WEBHOOK_SECRET,
 *   async onEvent(event) {
 *     const order = await orders.bySession(event.paymentSessionId)
 *     const { paid } = await confirmStatus(client, event, { sessionToken: order.sessionToken })
 *     if (paid) await orders.markPaid(order.id)
 *   },
 * })
 * http.createServer(toNodeListener(handler)).listen(8080)
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const { secret, onEvent, onDuplicate, onRejected, clock = systemClock } = options
  const toleranceSeconds = assertToleranceSeconds(options.toleranceSeconds ?? 300)
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024
  const store = options.dedupe === false ? undefined : (options.dedupe ?? createMemoryDedupeStore())
  if (typeof onEvent !== 'function')
    throw new TypeError('createWebhookHandler: onEvent is required.')
  if (options.insecureNoSignature === true) {
    if (secret !== undefined) {
      throw merchantError('INVALID_CONFIG', {
        shortMessage:
          'The webhook handler got both a secret and insecureNoSignature: true. Pass one of them.',
        docsPath: 'docs/server.md#webhook-snippet',
      })
    }
  } else if (typeof secret !== 'string' || secret === '') {
    // Typically process.env.PAYSESSION_WEBHOOK_SECRET is unset: refuse to start rather than
    // accept forged status updates.
    throw merchantError('INVALID_CONFIG', {
      shortMessage:
        'The webhook handler needs the secret the service signs with (e.g. PAYSESSION_WEBHOOK_SECRET). Set it, or pass insecureNoSignature: true to accept unsigned updates.',
      details: `secret is ${secret === '' ? 'an empty string' : typeof secret}.`,
      docsPath: 'docs/server.md#webhook-snippet',
    })
  }
  // Deliveries of one id that are being handled right now, so a concurrent retry waits.
  const inFlight = new Map<string, Promise<unknown>>()

  async function handleEvent(event: PaymentStatusUpdateEvent, request: Request): Promise<Response> {
    const key = dedupeKey(event.id)
    for (let running = inFlight.get(key); running; running = inFlight.get(key)) {
      await running.catch(() => undefined)
    }
    // Registered with no await since the check above, so a concurrent delivery waits for it.
    const work = (async () => {
      const holder = crypto.randomUUID()
      const claim = store?.claim
        ? await store.claim(key, holder, handlingLeaseMs)
        : store && (await store.has(key))
          ? 'handled'
          : 'claimed'
      if (claim === 'handled') return 'duplicate' as const
      // Another instance is handling it now: the service delivers again, and then it is a duplicate
      // (or, if that instance failed, handled here).
      if (claim === 'handling')
        throw new Rejected('HANDLER_BUSY', 'This delivery is being handled.', event.id)
      try {
        await onEvent(event, { request })
      } catch (error) {
        await store?.release?.(key, holder)
        throw new Rejected('HANDLER_ERROR', 'The event handler failed.', event.id, error)
      }
      await store?.add(key)
      return 'handled' as const
    })()
    inFlight.set(key, work)
    let outcome: 'duplicate' | 'handled'
    try {
      outcome = await work
    } finally {
      if (inFlight.get(key) === work) inFlight.delete(key)
    }
    if (outcome === 'duplicate') onDuplicate?.(event)
    return acknowledge(event.id)
  }

  return async function handleWebhook(request: Request): Promise<Response> {
    try {
      if (request.method !== 'POST') throw new Rejected('METHOD_NOT_ALLOWED', 'Use POST.')
      const body = await readLimitedBody(request, maxBodyBytes)
      let verified = false
      if (secret !== undefined) {
        const result = await verifyWebhookSignature({
          secret,
          header: request.headers.get(signatureHeader),
          body,
          toleranceSeconds,
          now: Math.floor(clock.now() / 1000),
        })
        if (!result.ok) throw new Rejected(result.reason, signatureMessages[result.reason])
        verified = true
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body))
      } catch {
        throw new Rejected('PARSE_ERROR', 'Parse error.')
      }
      return await handleEvent(parseEvent(parsed, verified), request)
    } catch (thrown) {
      if (!(thrown instanceof Rejected)) throw thrown
      const status = httpStatuses[thrown.reason]
      onRejected?.(
        {
          reason: thrown.reason,
          status,
          message: thrown.message,
          id: thrown.id,
          ...(thrown.error === undefined ? {} : { error: thrown.error }),
        },
        { request },
      )
      return jsonResponse(
        status,
        {
          jsonrpc: '2.0',
          error: {
            code: jsonRpcCodes[thrown.reason],
            message: thrown.message,
            data: { reason: thrown.reason },
          },
          id: thrown.id,
        },
        status === 405 ? { allow: 'POST' } : {},
      )
    }
  }
}
