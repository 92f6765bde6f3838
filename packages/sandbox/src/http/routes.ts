import type { Hex } from 'viem'
import type { SessionRow } from '../db.js'
import { createCapture, runCapture } from '../service/captures.js'
import type { Context } from '../service/context.js'
import { ApiError } from '../service/errors.js'
import { processReportedTransaction } from '../service/funding.js'
import {
  captureJson,
  createSession,
  expireDue,
  renewSessionToken,
  sessionJson,
  TERMINAL,
  updateSession,
} from '../service/sessions.js'
import { webhookBacklog } from '../service/webhooks.js'
import { type PathForm, shape } from './profile.js'

export type Auth =
  | { kind: 'none' }
  | { kind: 'unknown' }
  | { kind: 'merchant' }
  | { kind: 'session'; session: SessionRow; expired: boolean }

interface Request {
  auth: Auth
  params: string[]
  body: Record<string, unknown>
  query: URLSearchParams
}
type Handler = (
  ctx: Context,
  req: Request,
) => Promise<{ status: number; body: unknown }> | { status: number; body: unknown }

const ok = (body: unknown, status = 200) => ({ status, body })

function unauthorized(auth: Auth): never {
  if (auth.kind === 'none')
    throw new ApiError(
      401,
      'UNAUTHORIZED',
      'Send a credential as Authorization: Bearer <credential>.',
    )
  throw new ApiError(401, 'UNAUTHORIZED', 'The credential is not valid.')
}

function requireMerchant(auth: Auth) {
  if (auth.kind === 'merchant') return
  if (auth.kind === 'session')
    throw new ApiError(403, 'FORBIDDEN', 'This operation needs the merchant API key.')
  unauthorized(auth)
}

/** The session, if the credential may open it: its own token (not expired) or, where allowed, the API key. */
function openSession(ctx: Context, auth: Auth, id: string, allowMerchant: boolean): SessionRow {
  if (auth.kind === 'none' || auth.kind === 'unknown') unauthorized(auth)
  if (auth.kind === 'merchant' && !allowMerchant)
    throw new ApiError(403, 'FORBIDDEN', 'This operation needs the payment session token.')
  if (auth.kind === 'session') {
    if (auth.session.id !== id)
      throw new ApiError(403, 'FORBIDDEN', 'This session token belongs to another session.')
    if (auth.expired)
      throw new ApiError(401, 'SESSION_TOKEN_EXPIRED', 'The payment session token has expired.')
  }
  expireDue(ctx)
  const session = ctx.db.sessions.get(id)
  if (!session) throw new ApiError(404, 'SESSION_NOT_FOUND', `No payment session ${id}.`)
  return session
}

const HASH = /^0x[0-9a-fA-F]{64}$/

const reportFunding: Handler = async (ctx, { auth, params, body }) => {
  let s = openSession(ctx, auth, params[0]!, false)
  const { fundingTransactionHash: hash, wait = false } = body
  if (typeof hash !== 'string')
    throw new ApiError(
      400,
      'INVALID_REQUEST',
      'fundingTransactionHash is required and must be a string.',
    )
  if (typeof wait !== 'boolean')
    throw new ApiError(400, 'INVALID_REQUEST', 'wait must be a boolean.')
  if (!HASH.test(hash))
    throw new ApiError(
      422,
      'INVALID_TRANSACTION_HASH',
      'fundingTransactionHash must be 0x followed by 64 hex digits.',
    )
  if (s.status === 'CANCELED' || s.status === 'ERROR')
    throw new ApiError(
      409,
      'SESSION_NOT_PAYABLE',
      `This session is ${s.status} and can no longer be paid.`,
    )
  // With wait, a transaction that does not fund this session (or reverted) is refused
  // before anything is recorded: a 422 must not change the session.
  let processed: boolean | undefined
  if (wait)
    processed = (await processReportedTransaction(ctx, s.id, hash as Hex, ctx.options.waitTimeout))
      .processed
  s = ctx.db.sessions.get(s.id)!
  if (!TERMINAL.includes(s.status)) {
    updateSession(ctx, s, {
      user_submitted_tx: hash.toLowerCase(),
      ...(s.status === 'CREATED' ? { status: 'PENDING' as const } : {}),
    })
    s = ctx.db.sessions.get(s.id)!
  }
  const profile = shape(ctx.options.profile)
  if (profile.strict) return ok({ success: true }, profile.fundingStatus)
  return ok({ success: true, status: s.status, ...(processed === undefined ? {} : { processed }) })
}

export const routes: {
  method: string
  pattern: RegExp
  handler: Handler
  authenticated?: false
  /** The path form the spec shows for this operation; the strict profile serves only that one. */
  form?: PathForm
}[] = [
  {
    method: 'POST',
    pattern: /^\/payment-sessions$/,
    form: 'bare',
    handler: (ctx, { auth, body }) => {
      requireMerchant(auth)
      const session = sessionJson(ctx, createSession(ctx, body), { withToken: true })
      return ok(shape(ctx.options.profile).createdSession(session))
    },
  },
  {
    method: 'GET',
    pattern: /^\/payment-sessions$/,
    handler: (ctx, { auth, query }) => {
      requireMerchant(auth)
      expireDue(ctx)
      const limit = Math.min(Math.max(Number(query.get('limit') ?? 50) || 50, 1), 500)
      return ok({ data: ctx.db.sessions.list(limit).map((s) => sessionJson(ctx, s)) })
    },
  },
  {
    method: 'GET',
    pattern: /^\/payment-sessions\/([^/]+)$/,
    form: 'bare',
    handler: (ctx, { auth, params }) => {
      const profile = shape(ctx.options.profile)
      const s = openSession(ctx, auth, params[0]!, profile.merchantMayReadSession)
      return ok(profile.session(sessionJson(ctx, s)))
    },
  },
  {
    method: 'POST',
    pattern: /^\/payment-sessions\/([^/]+)\/funding-transaction$/,
    form: 'v1',
    handler: reportFunding,
  },
  {
    // Extension (API key): the spec has no way to renew a session token.
    method: 'POST',
    pattern: /^\/payment-sessions\/([^/]+)\/session-token$/,
    handler: (ctx, { auth, params }) => {
      requireMerchant(auth)
      return ok(renewSessionToken(ctx, openSession(ctx, auth, params[0]!, true)))
    },
  },
  {
    method: 'POST',
    pattern: /^\/payment-sessions\/([^/]+)\/captures$/,
    form: 'v1',
    handler: (ctx, { auth, params, body }) => {
      requireMerchant(auth)
      const profile = shape(ctx.options.profile)
      const s = openSession(ctx, auth, params[0]!, true)
      return ok(
        profile.createdCapture(captureJson(createCapture(ctx, s, profile.captureBody(body)))),
        202,
      )
    },
  },
  {
    method: 'GET',
    pattern: /^\/payment-sessions\/([^/]+)\/captures\/([^/]+)$/,
    form: 'v1',
    handler: (ctx, { auth, params }) => {
      requireMerchant(auth)
      const s = openSession(ctx, auth, params[0]!, true)
      const c = ctx.db.captures.get(s.id, params[1]!)
      if (!c)
        throw new ApiError(404, 'CAPTURE_NOT_FOUND', `No capture ${params[1]} on session ${s.id}.`)
      if (c.status === 'CAPTURING') runCapture(ctx, c)
      return ok(shape(ctx.options.profile).capture(captureJson(c)))
    },
  },
  // Sandbox-only helpers (API key): facts for tools, the test clock, the webhook log.
  {
    method: 'GET',
    pattern: /^\/sandbox\/info$/,
    handler: (ctx, { auth }) => {
      requireMerchant(auth)
      return ok(ctx.info())
    },
  },
  {
    method: 'POST',
    pattern: /^\/sandbox\/clock$/,
    handler: (ctx, { auth, body }) => {
      requireMerchant(auth)
      const seconds = body.advanceSeconds
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
        throw new ApiError(422, 'INVALID_REQUEST', 'advanceSeconds must be a non-negative number.')
      ctx.clock.advance(seconds)
      expireDue(ctx)
      return ok({ now: new Date(ctx.clock.now()).toISOString() })
    },
  },
  {
    method: 'GET',
    pattern: /^\/sandbox\/webhooks\/backlog$/,
    handler: (ctx, { auth }) => {
      requireMerchant(auth)
      return ok(webhookBacklog(ctx.db))
    },
  },
  {
    method: 'GET',
    pattern: /^\/sandbox\/webhooks$/,
    handler: (ctx, { auth }) => {
      requireMerchant(auth)
      return ok({
        data: ctx.db.webhooks.list(200).map((w) => ({
          id: w.id,
          paymentSessionId: w.session_id,
          state: w.state,
          attempts: w.attempts,
          lastError: w.last_error,
          body: JSON.parse(w.body),
        })),
      })
    },
  },
  {
    method: 'GET',
    pattern: /^\/health$/,
    handler: (ctx) => {
      const health = ctx.health()
      return ok(health, health.ok ? 200 : 503)
    },
    authenticated: false,
  },
]
