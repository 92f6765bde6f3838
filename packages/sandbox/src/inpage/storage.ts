import type {
  CaptureRow,
  OutgoingRow,
  SessionRow,
  Storage,
  TransferRow,
  WebhookRow,
} from '../service/storage.js'

// The in-page adapter's storage: the same tables as SQLite (db.ts) in plain arrays, with the
// same unique keys, orders and all-or-nothing transactions. Its whole state is one JSON value:
// `onCommit` receives it after every committed change, `createMemoryStorage(saved)` resumes it.

export interface MemoryState {
  meta: Record<string, string>
  sessions: SessionRow[]
  captures: CaptureRow[]
  transfers: TransferRow[]
  outgoing: OutgoingRow[]
  heads: { number: number; hash: string }[]
  webhooks: WebhookRow[]
  nextWebhookSeq: number
}

const empty = (): MemoryState => ({
  meta: {},
  sessions: [],
  captures: [],
  transfers: [],
  outgoing: [],
  heads: [],
  webhooks: [],
  nextWebhookSeq: 1,
})

const copy = <T>(row: T): T => ({ ...row })

function unique<T>(rows: T[], row: T, keys: (keyof T)[][], table: string) {
  for (const key of keys)
    if (rows.some((r) => key.every((k) => r[k] !== null && r[k] === row[k])))
      throw new Error(`UNIQUE constraint failed: ${table}.${key.join(', ')}`)
}

export function createMemoryStorage(
  saved?: MemoryState,
  onCommit?: (state: MemoryState) => void,
): Storage & { state(): MemoryState } {
  let s: MemoryState = saved ? structuredClone(saved) : empty()
  let depth = 0
  /** Every write goes through here: alone it commits at once, inside a transaction at its end. */
  const write = <T>(fn: () => T): T => {
    const before = structuredClone(s)
    depth++
    try {
      const out = fn()
      depth--
      if (depth === 0) onCommit?.(structuredClone(s))
      return out
    } catch (e) {
      depth--
      s = before
      throw e
    }
  }
  const bySeqDesc = (a: WebhookRow, b: WebhookRow) => b.seq - a.seq
  const chainOrder = (a: TransferRow, b: TransferRow) =>
    a.block_number - b.block_number || a.log_index - b.log_index
  const nonceOrder = (a: OutgoingRow, b: OutgoingRow) =>
    a.otw_index - b.otw_index || a.nonce - b.nonce
  const find = <T>(rows: T[], test: (r: T) => boolean) => {
    const row = rows.find(test)
    return row && copy(row)
  }
  const update = <T>(rows: T[], test: (r: T) => boolean, fields: Partial<T>) =>
    write(() => {
      for (const r of rows) if (test(r)) Object.assign(r as object, fields)
    })

  return {
    state: () => structuredClone(s),
    transaction: write,
    meta: {
      get: (key) => s.meta[key],
      set: (key, value) =>
        write(() => {
          s.meta[key] = value
        }),
    },
    sessions: {
      get: (id) => find(s.sessions, (r) => r.id === id),
      byRequestId: (requestId) => find(s.sessions, (r) => r.request_id === requestId),
      byToken: (token) => find(s.sessions, (r) => r.token === token),
      byOtw: (address) => find(s.sessions, (r) => r.otw_address === address.toLowerCase()),
      // Inserted in order, so newest first is the reverse (ties on created_at as SQLite's rowid).
      list: (limit) =>
        s.sessions
          .map((r, i) => ({ r, i }))
          .sort((a, b) => b.r.created_at - a.r.created_at || b.i - a.i)
          .slice(0, limit)
          .map(({ r }) => copy(r)),
      all: () => s.sessions.map(copy),
      nextOtwIndex: () => Math.max(-1, ...s.sessions.map((r) => r.otw_index)) + 1,
      insert: (row) =>
        write(() => {
          unique(
            s.sessions,
            row,
            [['id'], ['request_id'], ['token'], ['otw_index'], ['otw_address']],
            'sessions',
          )
          s.sessions.push(copy(row))
        }),
      update: (id, fields) => update(s.sessions, (r) => r.id === id, fields),
      expirable: (now) =>
        s.sessions
          .filter((r) => (r.status === 'CREATED' || r.status === 'PENDING') && r.expires_at <= now)
          .map(copy),
    },
    captures: {
      get: (sessionId, id) => find(s.captures, (r) => r.session_id === sessionId && r.id === id),
      byRequestId: (sessionId, requestId) =>
        find(s.captures, (r) => r.session_id === sessionId && r.request_id === requestId),
      forSession: (sessionId) =>
        s.captures
          .map((r, i) => ({ r, i }))
          .filter(({ r }) => r.session_id === sessionId)
          .sort((a, b) => a.r.created_at - b.r.created_at || a.i - b.i)
          .map(({ r }) => copy(r)),
      inFlight: () => s.captures.filter((r) => r.status === 'CAPTURING').map(copy),
      insert: (row) =>
        write(() => {
          unique(s.captures, row, [['id'], ['session_id', 'request_id']], 'captures')
          s.captures.push(copy(row))
        }),
      update: (id, fields) => update(s.captures, (r) => r.id === id, fields),
    },
    transfers: {
      insert: (row) =>
        write(() => {
          if (s.transfers.some((r) => r.tx_hash === row.tx_hash && r.log_index === row.log_index))
            return false
          s.transfers.push(copy(row))
          return true
        }),
      forSession: (sessionId) =>
        s.transfers
          .filter((r) => r.session_id === sessionId)
          .sort(chainOrder)
          .map(copy),
      byTx: (txHash) => s.transfers.filter((r) => r.tx_hash === txHash.toLowerCase()).map(copy),
      pendingReturns: () => s.transfers.filter((r) => r.disposition === 'RETURN_PENDING').map(copy),
      returnFunding: (sessionId, keepToken) =>
        update(
          s.transfers,
          (r) =>
            r.session_id === sessionId &&
            r.disposition === 'FUNDING' &&
            r.token_symbol !== (keepToken ?? ''),
          { disposition: 'RETURN_PENDING' },
        ),
      since: (blockNumber) =>
        s.transfers
          .filter((r) => r.block_number >= blockNumber)
          .sort(chainOrder)
          .map(copy),
      remove: (txHash, logIndex) =>
        write(() => {
          s.transfers = s.transfers.filter(
            (r) => !(r.tx_hash === txHash && r.log_index === logIndex),
          )
        }),
      moveTo: (txHash, blockNumber) =>
        update(s.transfers, (r) => r.tx_hash === txHash, { block_number: blockNumber }),
      markReturned: (txHash, logIndex, returnTx) =>
        update(s.transfers, (r) => r.tx_hash === txHash && r.log_index === logIndex, {
          disposition: 'RETURNED',
          return_tx: returnTx,
        }),
    },
    outgoing: {
      get: (purpose) => find(s.outgoing, (r) => r.purpose === purpose),
      insert: (row) =>
        write(() => {
          unique(s.outgoing, row, [['purpose'], ['hash']], 'outgoing')
          s.outgoing.push(copy(row))
        }),
      unsettled: () =>
        s.outgoing
          .filter((r) => r.state === 'SIGNED')
          .sort(nonceOrder)
          .map(copy),
      minedSince: (blockNumber) =>
        s.outgoing
          .filter((r) => r.state === 'MINED' && (r.block_number ?? -1) >= blockNumber)
          .sort(nonceOrder)
          .map(copy),
      settle: (purpose, fields) => update(s.outgoing, (r) => r.purpose === purpose, fields),
    },
    heads: {
      add: (number, hash) =>
        write(() => {
          s.heads = [...s.heads.filter((h) => h.number !== number), { number, hash }].sort(
            (a, b) => b.number - a.number,
          )
        }),
      all: () => s.heads.map(copy),
      prune: (above) =>
        write(() => {
          s.heads = s.heads.filter((h) => h.number <= above).slice(0, 256)
        }),
    },
    webhooks: {
      insert: (row) =>
        write(() => {
          unique(s.webhooks, row as WebhookRow, [['id']], 'webhooks')
          s.webhooks.push({
            ...row,
            seq: s.nextWebhookSeq++,
            attempts: 0,
            last_error: null,
            delivered_at: null,
          })
        }),
      heads: () => {
        const first = new Map<string, WebhookRow>()
        for (const w of s.webhooks)
          if (w.state === 'PENDING' && !first.has(w.session_id)) first.set(w.session_id, w)
        return [...first.values()].map(copy)
      },
      update: (seq, fields) => update(s.webhooks, (r) => r.seq === seq, fields),
      list: (limit) => [...s.webhooks].sort(bySeqDesc).slice(0, limit).map(copy),
      failed: () => s.webhooks.filter((r) => r.state === 'FAILED').map(copy),
      pending: () => s.webhooks.filter((r) => r.state === 'PENDING').map(copy),
      retryFailed: () =>
        write(() => {
          let requeued = 0
          let superseded = 0
          for (const w of s.webhooks) {
            if (w.state !== 'FAILED') continue
            const later = s.webhooks.some(
              (l) => l.session_id === w.session_id && l.seq > w.seq && l.state === 'DELIVERED',
            )
            if (later) {
              w.state = 'SUPERSEDED'
              superseded++
            } else {
              Object.assign(w, { state: 'PENDING', attempts: 0, next_attempt_at: 0 })
              requeued++
            }
          }
          return { requeued, superseded }
        }),
    },
    close: () => {},
  }
}
