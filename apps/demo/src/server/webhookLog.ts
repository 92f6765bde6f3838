import {
  confirmStatus,
  createWebhookHandler,
  type PaySessionClient,
  type WebhookHandler,
} from '@paysession/server'

/** One request that reached `/webhooks`, with what the handler made of it. */
export type WebhookLogEntry = {
  receivedAt: string
  /** The JSON-RPC id (evt_…), when the body has one (for a refused request: what it claimed). */
  id: string | number | null
  paymentSessionId: string | null
  status: string | null
  /** accepted: verified and handled; duplicate: acknowledged again; rejected: refused. */
  outcome: 'accepted' | 'duplicate' | 'rejected'
  /** HTTP status answered. */
  httpStatus: number
  verified: boolean
  /** For rejections: the handler's reason (SIGNATURE_MISMATCH, STALE_TIMESTAMP …). */
  reason?: string
  /**
   * For accepted events: the status the service reports when we asked back (confirmStatus),
   * or `unconfirmed` when no credential may read the session any more (token expired).
   */
  confirmedStatus?: string
}

export type WebhookLog = {
  entries: WebhookLogEntry[]
  handler: WebhookHandler
}

const maxEntries = 500

/**
 * The demo's webhook endpoint: `@paysession/server`'s handler, verifying the
 * sandbox's signature, plus an in-memory log of every request and its outcome.
 */
export function createWebhookLog(options: {
  secret: string
  client: PaySessionClient
  /** The session token stored with the order: section 5's credential for reading a session. */
  sessionTokenOf?: (paymentSessionId: string) => string | undefined
  onPaid?: (paymentSessionId: string) => void
}): WebhookLog {
  const entries: WebhookLogEntry[] = []
  const add = (entry: WebhookLogEntry) => {
    entries.unshift(entry)
    entries.length = Math.min(entries.length, maxEntries)
  }
  // The raw body of each request in flight, so a refused one can still be shown for what it claimed.
  const bodies = new WeakMap<Request, Promise<string>>()
  const claimed = async (request: Request) => {
    try {
      const json = JSON.parse((await bodies.get(request)) ?? '')
      const params = Array.isArray(json?.params) ? json.params[0] : undefined
      const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? v : null)
      return {
        id: text(json?.id),
        paymentSessionId: text(params?.paymentSessionId)?.toString() ?? null,
        status: text(params?.status)?.toString() ?? null,
      }
    } catch {
      return { id: null, paymentSessionId: null, status: null }
    }
  }
  const verify = createWebhookHandler({
    secret: options.secret,
    async onEvent(event) {
      // The spec shows no signing by the real service: ask it back before acting.
      const sessionToken = options.sessionTokenOf?.(event.paymentSessionId)
      const { status, paid } = await confirmStatus(options.client, event, { sessionToken })
      if (paid) options.onPaid?.(event.paymentSessionId)
      add({
        receivedAt: new Date().toISOString(),
        id: event.id,
        paymentSessionId: event.paymentSessionId,
        status: event.status,
        outcome: 'accepted',
        httpStatus: 200,
        verified: event.verified,
        confirmedStatus: status ?? 'unconfirmed',
      })
    },
    onDuplicate(event) {
      add({
        receivedAt: new Date().toISOString(),
        id: event.id,
        paymentSessionId: event.paymentSessionId,
        status: event.status,
        outcome: 'duplicate',
        httpStatus: 200,
        verified: event.verified,
      })
    },
    async onRejected(rejection, { request }) {
      const receivedAt = new Date().toISOString()
      const what = await claimed(request)
      add({
        receivedAt,
        id: rejection.id ?? what.id,
        paymentSessionId: what.paymentSessionId,
        status: what.status,
        outcome: 'rejected',
        httpStatus: rejection.status,
        verified: false,
        reason: rejection.reason,
      })
    },
  })
  const handler: WebhookHandler = (request) => {
    bodies.set(request, request.clone().text())
    return verify(request)
  }
  return { entries, handler }
}
