import {
  type Clock,
  confirmStatus,
  createMemoryDedupeStore,
  createWebhookHandler,
  dedupeKey,
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
  /** Identifies the entry in the log's file (a later line for the same entry replaces it). */
  logId?: string
  /** With forwarding on: the HTTP status the forward URL answered, or `failed` after the retries. */
  forwarded?: number | 'failed'
}

export type WebhookLog = {
  entries: WebhookLogEntry[]
  handler: WebhookHandler
}

/** How many entries the log keeps, newest first. */
export const maxEntries = 500

/**
 * Where the log survives a restart: `webhookLogFile` (a JSONL file, Node) or the hosted demo's
 * IndexedDB. `append` is called for each new entry and again when its forwarding result is known,
 * with the whole log (newest first) so a store may compact.
 */
export type WebhookLogStore = {
  load(): WebhookLogEntry[]
  append(entry: WebhookLogEntry, entries: WebhookLogEntry[]): void
}

/**
 * Re-sends a verified delivery, byte for byte with its signature header, to a developer's own
 * endpoint (PAYSESSION_WEBHOOK_URL), retrying with backoff like the service does.
 */
async function forward(
  url: string,
  body: string,
  signature: string | null,
): Promise<number | 'failed'> {
  for (let attempt = 0; attempt < 6; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** (attempt - 1)))
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(signature ? { 'paysession-signature': signature } : {}),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      })
      await response.body?.cancel()
      if (response.ok) return response.status
      if (response.status < 500 && response.status !== 429) return response.status
    } catch {}
  }
  return 'failed'
}

/**
 * The demo's webhook endpoint: `@paysession/server`'s handler, verifying the
 * sandbox's signature, plus a log of every request and its outcome, kept in
 * its `store` across restarts when one is given. Nothing here needs Node: the hosted demo runs
 * it in the page.
 */
export function createWebhookLog(options: {
  secret: string
  client: PaySessionClient
  /** The session token stored with the order: section 5's credential for reading a session. */
  sessionTokenOf?: (paymentSessionId: string) => string | undefined
  onPaid?: (paymentSessionId: string) => void
  /** Where the log is kept across restarts (`webhookLogFile`). Without it: memory only. */
  store?: WebhookLogStore | undefined
  /** Also send every verified delivery here (PAYSESSION_WEBHOOK_URL). */
  forwardTo?: string | undefined
  /** The service's clock, which signs the deliveries: the sandbox's, which tests move forward. */
  clock?: Clock | undefined
}): WebhookLog {
  const store = options.store
  const entries: WebhookLogEntry[] = store?.load().slice(0, maxEntries) ?? []
  const save = (entry: WebhookLogEntry) => {
    try {
      store?.append(entry, entries)
    } catch (error) {
      console.error('The webhook log could not be written:', error)
    }
  }
  const add = (entry: WebhookLogEntry) => {
    entry.logId = crypto.randomUUID()
    entries.unshift(entry)
    entries.length = Math.min(entries.length, maxEntries)
    save(entry)
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
  // Deliveries handled before a restart are still known: a redelivery is logged as a duplicate.
  const dedupe = createMemoryDedupeStore()
  for (const entry of [...entries].reverse())
    if (entry.outcome === 'accepted' && entry.id !== null) dedupe.add(dedupeKey(entry.id))
  const verify = createWebhookHandler({
    secret: options.secret,
    ...(options.clock ? { clock: options.clock } : {}),
    dedupe,
    async onEvent(event, { request }) {
      // The spec shows no signing by the real service: ask it back before acting.
      const sessionToken = options.sessionTokenOf?.(event.paymentSessionId)
      const { status, paid } = await confirmStatus(options.client, event, { sessionToken })
      if (paid) options.onPaid?.(event.paymentSessionId)
      const entry: WebhookLogEntry = {
        receivedAt: new Date().toISOString(),
        id: event.id,
        paymentSessionId: event.paymentSessionId,
        status: event.status,
        outcome: 'accepted',
        httpStatus: 200,
        verified: event.verified,
        confirmedStatus: status ?? 'unconfirmed',
      }
      add(entry)
      const { forwardTo } = options
      if (forwardTo) {
        const body = (await bodies.get(request)) ?? ''
        const signature = request.headers.get('paysession-signature')
        void forward(forwardTo, body, signature).then((result) => {
          entry.forwarded = result
          save(entry)
        })
      }
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
