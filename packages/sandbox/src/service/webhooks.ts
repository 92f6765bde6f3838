import {
  formatWebhookSignature,
  systemClock,
  webhookSignatureHeader,
  webhookSignedPayload,
} from '@paysession/protocol'
import type { Context } from './context.js'
import { hmacSha256Hex, randomId } from './crypto.js'
import type { Storage, WebhookRow } from './storage.js'

/** Queues one status update for delivery; called inside the transaction that changed the status. */
export function enqueueStatusUpdate(
  ctx: Context,
  sessionId: string,
  status: string,
  updatedAt: number,
) {
  if (!ctx.options.webhookUrl) return
  const id = randomId('evt_', 12)
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'paysession_paymentStatusUpdate',
    params: [
      {
        merchantId: ctx.options.merchantId,
        paymentSessionId: sessionId,
        status,
        updatedAt: new Date(updatedAt).toISOString(),
      },
    ],
  })
  ctx.db.webhooks.insert({
    id,
    session_id: sessionId,
    body,
    state: 'PENDING',
    next_attempt_at: 0,
    created_at: ctx.clock.now(),
  })
}

/** The `Paysession-Signature` value of a body (the format is protocol's `webhookSignature.ts`). */
export function signWebhook(
  secret: string,
  body: string,
  timestamp = Math.floor(systemClock.now() / 1000),
) {
  return formatWebhookSignature(
    timestamp,
    hmacSha256Hex(secret, webhookSignedPayload(timestamp, body)),
  )
}

const isAck = (text: string) => {
  try {
    const json = JSON.parse(text)
    return json?.jsonrpc === '2.0' && json?.result === 'ok'
  } catch {
    return false
  }
}

const statusOf = (w: WebhookRow): string => {
  try {
    return JSON.parse(w.body).params?.[0]?.status ?? '?'
  } catch {
    return '?'
  }
}

/** The delay before attempt `attempts + 1`: doubling from the base, capped. */
export function retryDelayMs(options: Context['options'], attempts: number) {
  return Math.min(options.webhookMaxRetryDelay, options.webhookRetryDelay * 2 ** (attempts - 1))
}

/**
 * Delivers the head of each session's queue, the way merchants' real services do: a failing
 * delivery is retried with doubling, capped delays for webhookRetryHours after the update, and
 * the session's later updates wait behind it, so a receiver that was down gets every update
 * afterwards, in order. Only a delivery given up after that window lets the later ones pass; it
 * is then superseded by them and never sent after them (see retryFailed). Times are the
 * sandbox's clock, which tests move forward.
 */
export function createWebhookWorker(ctx: Context) {
  const inFlight = new Set<string>()
  return async function deliverDue() {
    const url = ctx.options.webhookUrl
    if (!url) return
    const due = ctx.db.webhooks
      .heads()
      .filter((w) => w.next_attempt_at <= ctx.clock.now() && !inFlight.has(w.session_id))
    await Promise.all(
      due.map(async (w) => {
        inFlight.add(w.session_id)
        let error: string | null = null
        try {
          const headers: Record<string, string> = {
            'content-type': 'application/json',
            'paysession-webhook-id': w.id,
          }
          if (ctx.options.webhookSecret)
            headers[webhookSignatureHeader] = signWebhook(
              ctx.options.webhookSecret,
              w.body,
              Math.floor(ctx.clock.now() / 1000),
            )
          const res = await ctx.deliver(url, {
            method: 'POST',
            headers,
            body: w.body,
            signal: AbortSignal.timeout(ctx.options.webhookRequestTimeout),
          })
          const text = await res.text()
          if (res.status !== 200 || !isAck(text))
            error = `HTTP ${res.status}: ${text.slice(0, 200)}`
        } catch (e) {
          error = e instanceof Error ? `${e.name}: ${e.message}` : String(e)
        } finally {
          inFlight.delete(w.session_id)
        }
        const attempts = w.attempts + 1
        const now = ctx.clock.now()
        const windowOver = now - w.created_at >= ctx.options.webhookRetryHours * 3600_000
        if (!error)
          ctx.db.webhooks.update(w.seq, {
            state: 'DELIVERED',
            attempts,
            delivered_at: now,
            last_error: null,
          })
        else if (attempts >= ctx.options.webhookMaxAttempts || windowOver) {
          ctx.db.webhooks.update(w.seq, { state: 'FAILED', attempts, last_error: error })
          ctx.log(
            `webhook ${w.id} (${statusOf(w)} of ${w.session_id}) given up after ${attempts} attempts: ${error}. ` +
              "The session's later updates go out now and supersede it: it is never sent after them.",
          )
        } else {
          if (attempts === 1)
            ctx.logEvery(
              'webhooks',
              `delivery to ${url} failed (${error}); retrying for ${ctx.options.webhookRetryHours} h, each session's updates in order`,
            )
          ctx.db.webhooks.update(w.seq, {
            attempts,
            last_error: error,
            next_attempt_at: now + retryDelayMs(ctx.options, attempts),
          })
        }
      }),
    )
  }
}

/** What is waiting to be delivered: for the CLI, the API and the demo console. */
export interface WebhookBacklog {
  /** Updates not yet delivered, and the sessions they belong to. */
  waiting: number
  sessions: number
  /** When the oldest waiting update happened (ISO 8601). */
  oldestAt: string | null
  /** The next attempt due (ISO 8601), and the error of the latest failed one. */
  nextAttemptAt: string | null
  lastError: string | null
  /** Given up (FAILED): `paysession-sandbox webhooks retry` queues them again. */
  failed: number
  /** Per session, oldest first: the statuses waiting, in the order they will be sent. */
  bySession: { paymentSessionId: string; statuses: string[]; attempts: number }[]
}

export function webhookBacklog(db: Storage): WebhookBacklog {
  const pending = db.webhooks.pending()
  const bySession = new Map<string, WebhookRow[]>()
  for (const w of pending) bySession.set(w.session_id, [...(bySession.get(w.session_id) ?? []), w])
  const heads = [...bySession.values()].map((rows) => rows[0]!)
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString())
  const latestFailure = heads
    .filter((w) => w.last_error)
    .sort((a, b) => b.next_attempt_at - a.next_attempt_at)[0]
  return {
    waiting: pending.length,
    sessions: bySession.size,
    oldestAt: iso(pending[0]?.created_at),
    nextAttemptAt: iso(heads.length ? Math.min(...heads.map((w) => w.next_attempt_at)) : undefined),
    lastError: latestFailure?.last_error ?? null,
    failed: db.webhooks.failed().length,
    bySession: [...bySession.entries()].map(([paymentSessionId, rows]) => ({
      paymentSessionId,
      statuses: rows.map(statusOf),
      attempts: rows[0]!.attempts,
    })),
  }
}

/** Says what a restart (or `webhooks retry`) did with the deliveries that had been given up. */
export function logRequeued(
  log: (message: string) => void,
  { requeued, superseded }: { requeued: number; superseded: number },
) {
  if (requeued)
    log(`${requeued} webhook deliveries that had been given up are queued again, in order`)
  if (superseded)
    log(
      `${superseded} given-up webhook deliveries are superseded: a later update of their session was delivered, so they are not sent`,
    )
}
