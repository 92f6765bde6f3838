import { isTerminalStatus, sessionStatuses } from '@paysession/protocol'
import { getAddress } from 'viem'
import { hdKeyToAccount } from 'viem/accounts'
import { fromUnits, toUnits } from '../amounts.js'
import { CURRENCIES, LOCAL_CHAIN_ID, LOCAL_NETWORK, tokenBySymbol } from '../chain/tokens.js'
import type { Context } from './context.js'
import { randomId, sha256Hex } from './crypto.js'
import { ApiError } from './errors.js'
import type { CaptureRow, SessionRow, SessionStatus } from './storage.js'
import { enqueueStatusUpdate } from './webhooks.js'

export const TOKEN_DECIMALS = 6
export const MAX_AMOUNT = 1_000_000_000n
export const TERMINAL: SessionStatus[] = sessionStatuses.filter(isTerminalStatus)

const iso = (ms: number) => new Date(ms).toISOString()
const fmt = (units: string) => fromUnits(BigInt(units), TOKEN_DECIMALS)

/** A stable fingerprint of a request body, for idempotency-key conflict checks. */
export const fingerprint = (value: unknown) => sha256Hex(JSON.stringify(value))

export function otwAccount(ctx: Context, index: number) {
  return hdKeyToAccount(ctx.hd, { accountIndex: 0, addressIndex: index })
}

export function captureJson(c: CaptureRow) {
  return {
    captureId: c.id,
    paymentCaptureId: c.id,
    status: c.status,
    captureAmount: fmt(c.amount_units),
    refundAmount: fmt(c.refund_units),
    finalCapture: c.final === 1,
    captureTransferTransactionHash: c.capture_tx,
    refundTransferTransactionHash: c.refund_tx,
    createdAt: iso(c.created_at),
    ...(c.error ? { error: c.error } : {}),
  }
}

/** The session as the API shows it: every field of the spec plus the documented extensions. */
export function sessionJson(ctx: Context, s: SessionRow, opts: { withToken?: boolean } = {}) {
  return {
    paymentSessionId: s.id,
    ...(opts.withToken
      ? { paymentSessionToken: s.token, paymentSessionTokenExpiresAt: iso(s.token_expires_at) }
      : {}),
    status: s.status,
    amount: s.amount,
    currency: s.currency,
    network: s.network,
    chainId: LOCAL_CHAIN_ID,
    tokenSymbol: s.token_symbol,
    acceptedTokens: JSON.parse(s.accepted_tokens) as string[],
    oneTimeWalletAddress: getAddress(s.otw_address),
    userAddress: s.user_address,
    fundingTransactionHash: s.funding_tx,
    userSubmittedTransactionHash: s.user_submitted_tx,
    receivedAmount: fmt(s.received_units),
    capturableAmount: fmt(s.capturable_units),
    capturedAmount: fmt(s.captured_units),
    captures: ctx.db.captures.forSession(s.id).map(captureJson),
    createdAt: iso(s.created_at),
    expiresAt: iso(s.expires_at),
  }
}

/** Changes a session's status (and other fields) and queues the webhook, atomically. */
export function updateSession(ctx: Context, s: SessionRow, fields: Partial<SessionRow>) {
  const now = ctx.clock.now()
  ctx.db.transaction(() => {
    ctx.db.sessions.update(s.id, { ...fields, updated_at: now })
    if (fields.status && fields.status !== s.status)
      enqueueStatusUpdate(ctx, s.id, fields.status, now)
  })
  ctx.wake()
}

export function createSession(ctx: Context, body: Record<string, unknown>) {
  const { amount, currency, requestId } = body
  if (typeof amount !== 'string')
    throw new ApiError(400, 'INVALID_REQUEST', 'amount is required and must be a decimal string.')
  if (typeof currency !== 'string')
    throw new ApiError(400, 'INVALID_REQUEST', 'currency is required and must be a string.')
  if (requestId !== undefined && typeof requestId !== 'string')
    throw new ApiError(400, 'INVALID_REQUEST', 'requestId must be a string.')
  if (typeof requestId === 'string' && (requestId.length === 0 || requestId.length > 255))
    throw new ApiError(422, 'INVALID_REQUEST_ID', 'requestId must be 1 to 255 characters.')

  const code = currency.toUpperCase()
  const cur = CURRENCIES[code]
  if (!cur)
    throw new ApiError(
      422,
      'UNSUPPORTED_CURRENCY',
      `Currency ${currency} is not supported (USD, EUR).`,
    )
  const decimals = Math.min(ctx.options.amountDecimals ?? cur.minorUnits, TOKEN_DECIMALS)
  const units = toUnits(amount, decimals)
  if (units === null || units <= 0n || units > MAX_AMOUNT * 10n ** BigInt(decimals))
    throw new ApiError(
      422,
      'INVALID_AMOUNT',
      `amount must be a positive decimal string with at most ${decimals} decimals and at most ${MAX_AMOUNT}.`,
    )

  const print = fingerprint({ amount: fromUnits(units, decimals), currency: code })
  return ctx.db.transaction(() => {
    if (requestId) {
      const existing = ctx.db.sessions.byRequestId(requestId)
      if (existing) {
        if (existing.request_fingerprint !== print)
          throw new ApiError(
            409,
            'IDEMPOTENCY_CONFLICT',
            'This requestId was already used with a different body.',
          )
        return existing
      }
    }
    const now = ctx.clock.now()
    const index = ctx.db.sessions.nextOtwIndex()
    const row: SessionRow = {
      id: randomId('ps_', 12),
      request_id: requestId ?? null,
      request_fingerprint: print,
      token: randomId('pst_', 24),
      token_expires_at: now + ctx.options.tokenTtlSeconds * 1000,
      amount: fromUnits(units, decimals),
      currency: code,
      network: LOCAL_NETWORK,
      token_symbol: cur.tokens[0]!,
      accepted_tokens: JSON.stringify(cur.tokens),
      otw_index: index,
      otw_address: otwAccount(ctx, index).address.toLowerCase(),
      user_address: null,
      funding_tx: null,
      user_submitted_tx: null,
      received_units: '0',
      capturable_units: '0',
      captured_units: '0',
      // The spec shows both: CREATED in the status list, PENDING in the create example.
      status: ctx.options.profile === 'strict' ? 'PENDING' : 'CREATED',
      created_at: now,
      expires_at: now + ctx.options.fundingWindowSeconds * 1000,
      updated_at: now,
    }
    ctx.db.sessions.insert(row)
    enqueueStatusUpdate(ctx, row.id, row.status, now)
    ctx.wake()
    return row
  })
}

/**
 * Extension: a session token for the merchant to hand its page again. The current token while it
 * has more than half its lifetime left (so pages that renew at once agree on one), else a new
 * one, which replaces it. The session itself is unchanged.
 */
export function renewSessionToken(ctx: Context, s: SessionRow) {
  const now = ctx.clock.now()
  const ttl = ctx.options.tokenTtlSeconds * 1000
  if (s.token_expires_at - now <= ttl / 2)
    ctx.db.sessions.update(s.id, {
      token: randomId('pst_', 24),
      token_expires_at: now + ttl,
    })
  const fresh = ctx.db.sessions.get(s.id)!
  return {
    paymentSessionId: fresh.id,
    paymentSessionToken: fresh.token,
    paymentSessionTokenExpiresAt: iso(fresh.token_expires_at),
  }
}

/** The amount a session needs, in token base units. */
export const amountUnits = (s: SessionRow) => toUnits(s.amount, TOKEN_DECIMALS)!

export const isAccepted = (s: SessionRow, symbol: string) =>
  (JSON.parse(s.accepted_tokens) as string[]).includes(symbol) && !!tokenBySymbol(symbol)

/** Cancels every session whose funding window has passed. */
export function expireDue(ctx: Context) {
  for (const s of ctx.db.sessions.expirable(ctx.clock.now()))
    ctx.db.transaction(() => {
      updateSession(ctx, s, { status: 'CANCELED' })
      // An underpayment that arrived before the window closed goes back to its sender.
      ctx.db.transfers.returnFunding(s.id)
    })
}
