import type { Address, Hex } from 'viem'
import { toUnits } from '../amounts.js'
import type { Context } from './context.js'
import { randomId } from './crypto.js'
import { ApiError } from './errors.js'
import { inLane, RevertedError, sendFromOtw } from './otw.js'
import { fingerprint, TOKEN_DECIMALS, updateSession } from './sessions.js'
import type { CaptureRow, SessionRow } from './storage.js'

/**
 * Creates a capture. The check of the session's status and capturable amount and
 * the reservation of the amount happen in one SQLite transaction, so concurrent
 * captures can never together take more than was paid.
 */
export function createCapture(ctx: Context, session: SessionRow, body: Record<string, unknown>) {
  const { requestId, captureAmount } = body
  const finalFlag = body.isFinalCapture ?? body.finalCapture ?? false
  if (typeof requestId !== 'string' || !requestId)
    throw new ApiError(400, 'INVALID_REQUEST', 'requestId is required and must be a string.')
  if (requestId.length > 255)
    throw new ApiError(422, 'INVALID_REQUEST_ID', 'requestId must be at most 255 characters.')
  if (typeof captureAmount !== 'string')
    throw new ApiError(
      400,
      'INVALID_REQUEST',
      'captureAmount is required and must be a decimal string.',
    )
  if (typeof finalFlag !== 'boolean')
    throw new ApiError(400, 'INVALID_REQUEST', 'isFinalCapture must be a boolean.')
  const units = toUnits(captureAmount, TOKEN_DECIMALS)
  if (units === null || units <= 0n)
    throw new ApiError(
      422,
      'INVALID_AMOUNT',
      `captureAmount must be a positive decimal string with at most ${TOKEN_DECIMALS} decimals.`,
    )
  const print = fingerprint({ captureAmount: units.toString(), final: finalFlag })

  const capture = ctx.db.transaction(() => {
    const existing = ctx.db.captures.byRequestId(session.id, requestId)
    if (existing) {
      if (existing.request_fingerprint !== print)
        throw new ApiError(
          409,
          'IDEMPOTENCY_CONFLICT',
          'This requestId was already used with a different body.',
        )
      return existing
    }
    if (!ctx.chainUp())
      throw new ApiError(
        503,
        'CHAIN_UNAVAILABLE',
        'The sandbox’s chain is not running right now; nothing was captured. Try again in a few seconds.',
      )
    const s = ctx.db.sessions.get(session.id)!
    if (s.status !== 'FUNDED')
      throw new ApiError(
        409,
        'SESSION_NOT_CAPTURABLE',
        s.status === 'CAPTURING'
          ? 'A capture is in progress for this session; try again when it completes.'
          : `A capture needs a FUNDED session; this one is ${s.status}.`,
      )
    const capturable = BigInt(s.capturable_units)
    if (units > capturable)
      throw new ApiError(
        422,
        'AMOUNT_EXCEEDS_CAPTURABLE',
        `captureAmount exceeds the capturable amount.`,
      )
    const now = ctx.clock.now()
    const row: CaptureRow = {
      id: randomId('cap_', 12),
      session_id: s.id,
      request_id: requestId,
      request_fingerprint: print,
      amount_units: units.toString(),
      refund_units: finalFlag ? (capturable - units).toString() : '0',
      final: finalFlag ? 1 : 0,
      status: 'CAPTURING',
      capture_tx: null,
      refund_tx: null,
      error: null,
      created_at: now,
      updated_at: now,
    }
    ctx.db.captures.insert(row)
    updateSession(ctx, s, {
      status: 'CAPTURING',
      capturable_units: finalFlag ? '0' : (capturable - units).toString(),
    })
    return row
  })
  if (capture.status === 'CAPTURING') runCapture(ctx, capture)
  return capture
}

/**
 * Moves the funds on chain: OTW → treasury, then on a final capture the rest
 * OTW → payer. Each transfer is written ahead (see sendFromOtw), so after a crash a
 * capture resumes by re-broadcasting the stored transaction, never by signing a
 * second one; its outcome is recorded once.
 */
export function runCapture(ctx: Context, capture: CaptureRow) {
  if (ctx.runningCaptures.has(capture.id)) return
  ctx.runningCaptures.add(capture.id)
  const session = ctx.db.sessions.get(capture.session_id)!
  inLane(ctx, session.otw_index, async () => {
    let c = ctx.db.captures.get(session.id, capture.id)!
    if (c.status !== 'CAPTURING') return
    const step = async (field: 'capture_tx' | 'refund_tx', to: Address, value: bigint) => {
      const purpose = `${field === 'capture_tx' ? 'capture' : 'refund'}:${c.id}`
      // A hash from before write-ahead existed (no stored transaction): done if mined, else sent anew.
      const legacy = c[field] && !ctx.db.outgoing.get(purpose)
      if (
        !legacy ||
        !(await ctx.chain.publicClient
          .getTransactionReceipt({ hash: c[field] as Hex })
          .catch(() => undefined))
      )
        await sendFromOtw(
          ctx,
          purpose,
          session.otw_index,
          session.token_symbol,
          to,
          value,
          (hash) => ctx.db.captures.update(c.id, { [field]: hash, updated_at: ctx.clock.now() }),
        )
      c = ctx.db.captures.get(session.id, capture.id)!
    }
    await step('capture_tx', ctx.treasury, BigInt(c.amount_units))
    const refund = BigInt(c.refund_units)
    if (c.final && refund > 0n) await step('refund_tx', session.user_address as Address, refund)
    ctx.db.transaction(() => {
      if (ctx.db.captures.get(session.id, capture.id)!.status !== 'CAPTURING') return
      const s = ctx.db.sessions.get(session.id)!
      ctx.db.captures.update(c.id, { status: 'CAPTURED', updated_at: ctx.clock.now() })
      const nothingLeft = c.final === 1 || BigInt(s.capturable_units) === 0n
      updateSession(ctx, s, {
        status: nothingLeft ? 'SUCCEEDED' : 'FUNDED',
        captured_units: (BigInt(s.captured_units) + BigInt(c.amount_units)).toString(),
      })
    })
  })
    .catch((e) => {
      // A node outage is retried by the background loop (once a minute in the log); only a revert is final.
      if (!(e instanceof RevertedError)) return ctx.logEvery(`capture ${capture.id}`, String(e))
      ctx.log(`capture ${capture.id}: ${e}`)
      ctx.db.transaction(() => {
        if (ctx.db.captures.get(session.id, capture.id)!.status !== 'CAPTURING') return
        ctx.db.captures.update(capture.id, {
          status: 'FAILED',
          error: String(e),
          updated_at: ctx.clock.now(),
        })
        updateSession(ctx, ctx.db.sessions.get(session.id)!, { status: 'ERROR' })
      })
    })
    .finally(() => ctx.runningCaptures.delete(capture.id))
}
