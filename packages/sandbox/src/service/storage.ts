import type { SessionStatus } from '@paysession/protocol'

// The service's storage, as the service sees it: a few tables of rows and the queries it needs.
// The Node adapter keeps them in SQLite (db.ts); another adapter only has to keep the same
// promises: `transaction` runs its function all-or-nothing, and a write has happened when its
// call returns (the crash guarantees rely on that: a transfer is stored before it is broadcast).

export type { SessionStatus }

export interface SessionRow {
  id: string
  request_id: string | null
  request_fingerprint: string | null
  token: string
  token_expires_at: number
  amount: string
  currency: string
  network: string
  token_symbol: string
  accepted_tokens: string
  otw_index: number
  otw_address: string
  user_address: string | null
  funding_tx: string | null
  user_submitted_tx: string | null
  received_units: string
  capturable_units: string
  captured_units: string
  status: SessionStatus
  created_at: number
  expires_at: number
  updated_at: number
}

export interface CaptureRow {
  id: string
  session_id: string
  request_id: string
  request_fingerprint: string
  amount_units: string
  refund_units: string
  final: number
  status: 'CAPTURING' | 'CAPTURED' | 'FAILED'
  capture_tx: string | null
  refund_tx: string | null
  error: string | null
  created_at: number
  updated_at: number
}

export interface TransferRow {
  tx_hash: string
  log_index: number
  session_id: string
  token_symbol: string
  from_address: string
  value_units: string
  block_number: number
  disposition: 'FUNDING' | 'RETURN_PENDING' | 'RETURNED'
  return_tx: string | null
}

/** A signed transfer from a one-time wallet, stored before it is broadcast (write-ahead). */
export interface OutgoingRow {
  /** What it is for, unique: `capture:<id>`, `refund:<id>`, `return:<tx hash>:<log index>`. */
  purpose: string
  otw_index: number
  nonce: number
  hash: string
  raw: string
  state: 'SIGNED' | 'MINED' | 'REVERTED'
  block_number: number | null
  error: string | null
  created_at: number
  updated_at: number
}

export interface WebhookRow {
  seq: number
  id: string
  session_id: string
  body: string
  /**
   * PENDING: waiting or being retried. FAILED: given up. SUPERSEDED: given up, and a later update
   * of its session was delivered since, so it is never sent (it would arrive out of order).
   */
  state: 'PENDING' | 'DELIVERED' | 'FAILED' | 'SUPERSEDED'
  attempts: number
  next_attempt_at: number
  last_error: string | null
  created_at: number
  delivered_at: number | null
}

export interface Storage {
  /** Runs fn all-or-nothing: its writes all happen, or (when it throws) none. */
  transaction<T>(fn: () => T): T
  meta: {
    get(key: string): string | undefined
    set(key: string, value: string): void
  }
  sessions: {
    get(id: string): SessionRow | undefined
    byRequestId(requestId: string): SessionRow | undefined
    byToken(token: string): SessionRow | undefined
    /** By one-time wallet address, any letter case. */
    byOtw(address: string): SessionRow | undefined
    /** Newest first. */
    list(limit: number): SessionRow[]
    all(): SessionRow[]
    nextOtwIndex(): number
    /** Throws when id, request_id, token, otw_index or otw_address is taken. */
    insert(row: SessionRow): void
    update(id: string, fields: Partial<SessionRow>): void
    /** CREATED or PENDING sessions whose funding window ended at or before `now`. */
    expirable(now: number): SessionRow[]
  }
  captures: {
    get(sessionId: string, id: string): CaptureRow | undefined
    byRequestId(sessionId: string, requestId: string): CaptureRow | undefined
    /** Oldest first. */
    forSession(sessionId: string): CaptureRow[]
    inFlight(): CaptureRow[]
    /** Throws when (session_id, request_id) is taken. */
    insert(row: CaptureRow): void
    update(id: string, fields: Partial<CaptureRow>): void
  }
  transfers: {
    /** False (and nothing changes) when this (tx_hash, log_index) is already stored. */
    insert(row: TransferRow): boolean
    /** In chain order. */
    forSession(sessionId: string): TransferRow[]
    /** By lower-case hash. */
    byTx(txHash: string): TransferRow[]
    pendingReturns(): TransferRow[]
    /** Marks a session's counted transfers (all, or those not in `keepToken`) to be sent back. */
    returnFunding(sessionId: string, keepToken?: string): void
    /** In chain order. */
    since(blockNumber: number): TransferRow[]
    remove(txHash: string, logIndex: number): void
    moveTo(txHash: string, blockNumber: number): void
    markReturned(txHash: string, logIndex: number, returnTx: string): void
  }
  outgoing: {
    get(purpose: string): OutgoingRow | undefined
    /** Throws when the purpose or hash is taken. */
    insert(row: OutgoingRow): void
    /** Signed but not known to be mined, oldest first (nonce order per wallet). */
    unsettled(): OutgoingRow[]
    /** Mined at or after blockNumber, in nonce order per wallet. */
    minedSince(blockNumber: number): OutgoingRow[]
    settle(
      purpose: string,
      fields: Pick<OutgoingRow, 'state' | 'block_number' | 'error' | 'updated_at'>,
    ): void
  }
  heads: {
    add(number: number, hash: string): void
    /** Newest first. */
    all(): { number: number; hash: string }[]
    /** Forgets heads above `number` (after a rollback) and all but the newest 256. */
    prune(above: number): void
  }
  webhooks: {
    insert(row: Omit<WebhookRow, 'seq' | 'attempts' | 'last_error' | 'delivered_at'>): void
    /** The oldest PENDING delivery of each session: deliveries for one session go strictly in order. */
    heads(): WebhookRow[]
    update(seq: number, fields: Partial<WebhookRow>): void
    /** Newest first. */
    list(limit: number): WebhookRow[]
    failed(): WebhookRow[]
    /** Every PENDING delivery, oldest first: the backlog. */
    pending(): WebhookRow[]
    /**
     * Queues every given-up delivery again, with fresh attempts, in their order; one whose
     * session had a later update delivered since becomes SUPERSEDED instead, never sent.
     */
    retryFailed(): { requeued: number; superseded: number }
  }
  close(): void
}
