import { randomUUID } from 'node:crypto'
import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
} from 'node:fs'
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
  /** Identifies the entry in the log's file (a later line for the same entry replaces it). */
  logId?: string
  /** With forwarding on: the HTTP status the forward URL answered, or `failed` after the retries. */
  forwarded?: number | 'failed'
}

export type WebhookLog = {
  entries: WebhookLogEntry[]
  handler: WebhookHandler
}

const maxEntries = 500

const keyOf = (entry: WebhookLogEntry) =>
  entry.logId ?? `${entry.receivedAt} ${entry.id} ${entry.outcome}`

/**
 * Entries from an append-only JSONL file, newest first. A later line for the same entry (its
 * forwarding result) replaces the earlier one; a line torn by a crash is skipped.
 */
function load(file: string): WebhookLogEntry[] {
  if (!existsSync(file)) return []
  const byKey = new Map<string, WebhookLogEntry>()
  const text = readFileSync(file, 'utf8')
  // A torn last line must not swallow the next entry: start it on a line of its own.
  if (text && !text.endsWith('\n')) appendFileSync(file, '\n')
  for (const line of text.split('\n')) {
    try {
      if (!line) continue
      const entry = JSON.parse(line) as WebhookLogEntry
      byKey.set(keyOf(entry), entry)
    } catch {}
  }
  return [...byKey.values()].reverse().slice(0, maxEntries)
}

/**
 * The log's file: one JSON line per entry, appended and fsynced, so kill -9 loses at most the
 * line being written. When it holds twice the kept entries it is rewritten (temp file, fsync,
 * rename), so the file never holds half a log.
 */
function createLogFile(file: string, entries: WebhookLogEntry[]) {
  let lines = entries.length
  const write = (path: string, text: string, append: boolean) => {
    const fd = openSync(path, append ? 'a' : 'w')
    try {
      appendFileSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  }
  return {
    append(entry: WebhookLogEntry) {
      write(file, `${JSON.stringify(entry)}\n`, true)
      if (++lines <= maxEntries * 2) return
      const text = entries
        .slice()
        .reverse()
        .map((e) => `${JSON.stringify(e)}\n`)
        .join('')
      write(`${file}.tmp`, text, false)
      renameSync(`${file}.tmp`, file)
      lines = entries.length
    },
  }
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
 * `file` (the data folder) across restarts when one is given.
 */
export function createWebhookLog(options: {
  secret: string
  client: PaySessionClient
  /** The session token stored with the order: section 5's credential for reading a session. */
  sessionTokenOf?: (paymentSessionId: string) => string | undefined
  onPaid?: (paymentSessionId: string) => void
  /** JSONL file for the log (demo-webhooks.jsonl in the data folder). Without it: memory only. */
  file?: string | undefined
  /** Also send every verified delivery here (PAYSESSION_WEBHOOK_URL). */
  forwardTo?: string | undefined
}): WebhookLog {
  const entries: WebhookLogEntry[] = options.file ? load(options.file) : []
  const file = options.file ? createLogFile(options.file, entries) : undefined
  const add = (entry: WebhookLogEntry) => {
    entry.logId = randomUUID()
    entries.unshift(entry)
    entries.length = Math.min(entries.length, maxEntries)
    try {
      file?.append(entry)
    } catch (error) {
      console.error('The webhook log could not be written:', error)
    }
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
          try {
            file?.append(entry)
          } catch {}
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
