import type { Context } from './context.js'
import { hmacSha256Hex, randomId } from './crypto.js'

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
    created_at: Date.now(),
  })
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` */
export function signWebhook(
  secret: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
) {
  const v1 = hmacSha256Hex(secret, `${timestamp}.${body}`)
  return `t=${timestamp},v1=${v1}`
}

const isAck = (text: string) => {
  try {
    const json = JSON.parse(text)
    return json?.jsonrpc === '2.0' && json?.result === 'ok'
  } catch {
    return false
  }
}

/**
 * Delivers the head of each session's queue. Deliveries for one session go one at
 * a time and in order; a delivery that keeps failing is given up after
 * webhookMaxAttempts so the ones behind it still go out.
 */
export function createWebhookWorker(ctx: Context) {
  const inFlight = new Set<string>()
  return async function deliverDue() {
    const url = ctx.options.webhookUrl
    if (!url) return
    const due = ctx.db.webhooks
      .heads()
      .filter((w) => w.next_attempt_at <= Date.now() && !inFlight.has(w.session_id))
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
            headers['paysession-signature'] = signWebhook(ctx.options.webhookSecret, w.body)
          const res = await ctx.deliver(url, {
            method: 'POST',
            headers,
            body: w.body,
            signal: AbortSignal.timeout(ctx.options.webhookTimeoutMs),
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
        if (!error)
          ctx.db.webhooks.update(w.seq, {
            state: 'DELIVERED',
            attempts,
            delivered_at: Date.now(),
            last_error: null,
          })
        else if (attempts >= ctx.options.webhookMaxAttempts) {
          ctx.db.webhooks.update(w.seq, { state: 'FAILED', attempts, last_error: error })
          ctx.log(`webhook ${w.id} given up after ${attempts} attempts: ${error}`)
        } else
          ctx.db.webhooks.update(w.seq, {
            attempts,
            last_error: error,
            next_attempt_at: Date.now() + ctx.options.webhookBaseDelayMs * 2 ** (attempts - 1),
          })
      }),
    )
  }
}
