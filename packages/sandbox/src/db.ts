import Database from 'better-sqlite3'

import type {
  CaptureRow,
  OutgoingRow,
  SessionRow,
  Storage,
  TransferRow,
  WebhookRow,
} from './service/storage.js'

export type {
  CaptureRow,
  OutgoingRow,
  SessionRow,
  SessionStatus,
  Storage,
  TransferRow,
  WebhookRow,
} from './service/storage.js'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, request_id TEXT UNIQUE, request_fingerprint TEXT,
  token TEXT NOT NULL UNIQUE, token_expires_at INTEGER NOT NULL,
  amount TEXT NOT NULL, currency TEXT NOT NULL, network TEXT NOT NULL, token_symbol TEXT NOT NULL,
  accepted_tokens TEXT NOT NULL, otw_index INTEGER NOT NULL UNIQUE, otw_address TEXT NOT NULL UNIQUE,
  user_address TEXT, funding_tx TEXT, user_submitted_tx TEXT,
  received_units TEXT NOT NULL DEFAULT '0', capturable_units TEXT NOT NULL DEFAULT '0',
  captured_units TEXT NOT NULL DEFAULT '0',
  status TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS captures (
  id TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id),
  request_id TEXT NOT NULL, request_fingerprint TEXT NOT NULL,
  amount_units TEXT NOT NULL, refund_units TEXT NOT NULL, final INTEGER NOT NULL,
  status TEXT NOT NULL, capture_tx TEXT, refund_tx TEXT, error TEXT,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  UNIQUE (session_id, request_id)
);
CREATE TABLE IF NOT EXISTS transfers (
  tx_hash TEXT NOT NULL, log_index INTEGER NOT NULL, session_id TEXT NOT NULL,
  token_symbol TEXT NOT NULL, from_address TEXT NOT NULL, value_units TEXT NOT NULL,
  block_number INTEGER NOT NULL, disposition TEXT NOT NULL, return_tx TEXT,
  PRIMARY KEY (tx_hash, log_index)
);
CREATE TABLE IF NOT EXISTS webhooks (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL,
  body TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL, last_error TEXT, created_at INTEGER NOT NULL, delivered_at INTEGER
);
CREATE TABLE IF NOT EXISTS outgoing (
  purpose TEXT PRIMARY KEY, otw_index INTEGER NOT NULL, nonce INTEGER NOT NULL,
  hash TEXT NOT NULL UNIQUE, raw TEXT NOT NULL, state TEXT NOT NULL, block_number INTEGER, error TEXT,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS scanned_heads (number INTEGER PRIMARY KEY, hash TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS webhooks_pending ON webhooks (state, session_id, seq);
CREATE INDEX IF NOT EXISTS sessions_open ON sessions (status);
`

/** The Node adapter's storage: opens (or creates) the sandbox's SQLite file; ':memory:' for a throwaway sandbox. */
export function openDb(path: string): Storage {
  const db = new Database(path)
  // Statements are prepared once and reused: the load benchmark polls get-session hard.
  const cache = new Map<string, Database.Statement>()
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => {
    let stmt = cache.get(sql)
    if (!stmt) {
      stmt = prepare(sql)
      cache.set(sql, stmt)
    }
    return stmt
  }) as typeof db.prepare
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  // The CLI (webhooks retry) may write while a sandbox runs.
  db.pragma('busy_timeout = 5000')
  db.exec(SCHEMA)

  const getMeta = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?')
  const setMeta = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  )

  return {
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    meta: {
      get: (key: string) => getMeta.get(key)?.value,
      set: (key: string, value: string) => void setMeta.run(key, value),
    },
    sessions: {
      get: (id: string) =>
        db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id = ?').get(id),
      byRequestId: (requestId: string) =>
        db
          .prepare<[string], SessionRow>('SELECT * FROM sessions WHERE request_id = ?')
          .get(requestId),
      byToken: (token: string) =>
        db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE token = ?').get(token),
      byOtw: (address: string) =>
        db
          .prepare<[string], SessionRow>('SELECT * FROM sessions WHERE otw_address = ?')
          .get(address.toLowerCase()),
      list: (limit: number) =>
        db
          .prepare<[number], SessionRow>(
            'SELECT * FROM sessions ORDER BY created_at DESC, rowid DESC LIMIT ?',
          )
          .all(limit),
      all: () => db.prepare<[], SessionRow>('SELECT * FROM sessions').all(),
      nextOtwIndex: () =>
        (db.prepare<[], { n: number | null }>('SELECT MAX(otw_index) AS n FROM sessions').get()
          ?.n ?? -1) + 1,
      insert: (row: SessionRow) =>
        void db
          .prepare(
            `INSERT INTO sessions VALUES (@id, @request_id, @request_fingerprint, @token, @token_expires_at, @amount, @currency,
             @network, @token_symbol, @accepted_tokens, @otw_index, @otw_address, @user_address, @funding_tx,
             @user_submitted_tx, @received_units, @capturable_units, @captured_units, @status, @created_at, @expires_at, @updated_at)`,
          )
          .run(row),
      update: (id: string, fields: Partial<SessionRow>) => {
        const keys = Object.keys(fields)
        if (!keys.length) return
        db.prepare(
          `UPDATE sessions SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`,
        ).run({
          ...fields,
          id,
        })
      },
      expirable: (now: number) =>
        db
          .prepare<[number], SessionRow>(
            "SELECT * FROM sessions WHERE status IN ('CREATED', 'PENDING') AND expires_at <= ?",
          )
          .all(now),
    },
    captures: {
      get: (sessionId: string, id: string) =>
        db
          .prepare<[string, string], CaptureRow>(
            'SELECT * FROM captures WHERE session_id = ? AND id = ?',
          )
          .get(sessionId, id),
      byRequestId: (sessionId: string, requestId: string) =>
        db
          .prepare<[string, string], CaptureRow>(
            'SELECT * FROM captures WHERE session_id = ? AND request_id = ?',
          )
          .get(sessionId, requestId),
      forSession: (sessionId: string) =>
        db
          .prepare<[string], CaptureRow>(
            'SELECT * FROM captures WHERE session_id = ? ORDER BY created_at, rowid',
          )
          .all(sessionId),
      inFlight: () =>
        db.prepare<[], CaptureRow>("SELECT * FROM captures WHERE status = 'CAPTURING'").all(),
      insert: (row: CaptureRow) =>
        void db
          .prepare(
            `INSERT INTO captures VALUES (@id, @session_id, @request_id, @request_fingerprint, @amount_units, @refund_units,
             @final, @status, @capture_tx, @refund_tx, @error, @created_at, @updated_at)`,
          )
          .run(row),
      update: (id: string, fields: Partial<CaptureRow>) => {
        const keys = Object.keys(fields)
        db.prepare(
          `UPDATE captures SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`,
        ).run({
          ...fields,
          id,
        })
      },
    },
    transfers: {
      insert: (row: TransferRow) =>
        db
          .prepare(
            `INSERT OR IGNORE INTO transfers VALUES (@tx_hash, @log_index, @session_id, @token_symbol, @from_address,
             @value_units, @block_number, @disposition, @return_tx)`,
          )
          .run(row).changes === 1,
      forSession: (sessionId: string) =>
        db
          .prepare<[string], TransferRow>(
            'SELECT * FROM transfers WHERE session_id = ? ORDER BY block_number, log_index',
          )
          .all(sessionId),
      byTx: (txHash: string) =>
        db
          .prepare<[string], TransferRow>('SELECT * FROM transfers WHERE tx_hash = ?')
          .all(txHash.toLowerCase()),
      pendingReturns: () =>
        db
          .prepare<[], TransferRow>("SELECT * FROM transfers WHERE disposition = 'RETURN_PENDING'")
          .all(),
      /** Marks a session's counted transfers (all, or those not in `keepToken`) to be sent back. */
      returnFunding: (sessionId: string, keepToken?: string) =>
        void db
          .prepare(
            "UPDATE transfers SET disposition = 'RETURN_PENDING' WHERE session_id = ? AND disposition = 'FUNDING' AND token_symbol != ?",
          )
          .run(sessionId, keepToken ?? ''),
      since: (blockNumber: number) =>
        db
          .prepare<[number], TransferRow>(
            'SELECT * FROM transfers WHERE block_number >= ? ORDER BY block_number, log_index',
          )
          .all(blockNumber),
      remove: (txHash: string, logIndex: number) =>
        void db
          .prepare('DELETE FROM transfers WHERE tx_hash = ? AND log_index = ?')
          .run(txHash, logIndex),
      moveTo: (txHash: string, blockNumber: number) =>
        void db
          .prepare('UPDATE transfers SET block_number = ? WHERE tx_hash = ?')
          .run(blockNumber, txHash),
      markReturned: (txHash: string, logIndex: number, returnTx: string) =>
        void db
          .prepare(
            "UPDATE transfers SET disposition = 'RETURNED', return_tx = ? WHERE tx_hash = ? AND log_index = ?",
          )
          .run(returnTx, txHash, logIndex),
    },
    outgoing: {
      get: (purpose: string) =>
        db.prepare<[string], OutgoingRow>('SELECT * FROM outgoing WHERE purpose = ?').get(purpose),
      insert: (row: OutgoingRow) =>
        void db
          .prepare(
            `INSERT INTO outgoing VALUES (@purpose, @otw_index, @nonce, @hash, @raw, @state, @block_number, @error,
             @created_at, @updated_at)`,
          )
          .run(row),
      /** Signed but not known to be mined, oldest first (nonce order per wallet). */
      unsettled: () =>
        db
          .prepare<[], OutgoingRow>(
            "SELECT * FROM outgoing WHERE state = 'SIGNED' ORDER BY otw_index, nonce",
          )
          .all(),
      minedSince: (blockNumber: number) =>
        db
          .prepare<[number], OutgoingRow>(
            "SELECT * FROM outgoing WHERE state = 'MINED' AND block_number >= ? ORDER BY otw_index, nonce",
          )
          .all(blockNumber),
      settle: (
        purpose: string,
        fields: Pick<OutgoingRow, 'state' | 'block_number' | 'error' | 'updated_at'>,
      ) =>
        void db
          .prepare(
            'UPDATE outgoing SET state = @state, block_number = @block_number, error = @error, updated_at = @updated_at WHERE purpose = @purpose',
          )
          .run({ ...fields, purpose }),
    },
    heads: {
      add: (number: number, hash: string) =>
        void db
          .prepare('INSERT OR REPLACE INTO scanned_heads (number, hash) VALUES (?, ?)')
          .run(number, hash),
      /** Newest first. */
      all: () =>
        db
          .prepare<[], { number: number; hash: string }>(
            'SELECT * FROM scanned_heads ORDER BY number DESC',
          )
          .all(),
      /** Forgets heads above `number` (after a rollback) and all but the newest 256. */
      prune: (above: number) => {
        db.prepare('DELETE FROM scanned_heads WHERE number > ?').run(above)
        db.prepare(
          'DELETE FROM scanned_heads WHERE number NOT IN (SELECT number FROM scanned_heads ORDER BY number DESC LIMIT 256)',
        ).run()
      },
    },
    webhooks: {
      insert: (row: Omit<WebhookRow, 'seq' | 'attempts' | 'last_error' | 'delivered_at'>) =>
        void db
          .prepare(
            'INSERT INTO webhooks (id, session_id, body, state, next_attempt_at, created_at) VALUES (@id, @session_id, @body, @state, @next_attempt_at, @created_at)',
          )
          .run(row),
      // The head of each session's queue: deliveries for one session go strictly in order.
      heads: () =>
        db
          .prepare<[], WebhookRow>(
            "SELECT w.* FROM webhooks w WHERE w.seq IN (SELECT MIN(seq) FROM webhooks WHERE state = 'PENDING' GROUP BY session_id)",
          )
          .all(),
      update: (seq: number, fields: Partial<WebhookRow>) => {
        const keys = Object.keys(fields)
        db.prepare(
          `UPDATE webhooks SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE seq = @seq`,
        ).run({
          ...fields,
          seq,
        })
      },
      list: (limit: number) =>
        db
          .prepare<[number], WebhookRow>('SELECT * FROM webhooks ORDER BY seq DESC LIMIT ?')
          .all(limit),
      failed: () =>
        db
          .prepare<[], WebhookRow>("SELECT * FROM webhooks WHERE state = 'FAILED' ORDER BY seq")
          .all(),
      pending: () =>
        db
          .prepare<[], WebhookRow>("SELECT * FROM webhooks WHERE state = 'PENDING' ORDER BY seq")
          .all(),
      retryFailed: () =>
        db.transaction(() => {
          const superseded = db
            .prepare(
              "UPDATE webhooks SET state = 'SUPERSEDED' WHERE state = 'FAILED' AND EXISTS (SELECT 1 FROM webhooks later WHERE later.session_id = webhooks.session_id AND later.seq > webhooks.seq AND later.state = 'DELIVERED')",
            )
            .run().changes
          const requeued = db
            .prepare(
              "UPDATE webhooks SET state = 'PENDING', attempts = 0, next_attempt_at = 0 WHERE state = 'FAILED'",
            )
            .run().changes
          return { requeued, superseded }
        })(),
    },
    close: () => void db.close(),
  }
}
