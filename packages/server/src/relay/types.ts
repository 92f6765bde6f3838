import type { Address, Hex } from 'viem'

/** The EIP-3009 `TransferWithAuthorization` message the customer signed. */
export type TransferAuthorization = {
  from: Address
  to: Address
  value: bigint
  validAfter: bigint
  validBefore: bigint
  nonce: Hex
}

/**
 * What the relay remembers per session about the authorization it is sending or sent, so that
 * the chain can say later whether it still blocks another one.
 */
export type RelayRecord = {
  from: Address
  nonce: Hex
  validBefore: string
  /** The relay's network name and the token contract the authorization is for. */
  network: string
  token: Address
  /** A block before the transaction was sent: where its events are looked up from. */
  fromBlock: string
  /**
   * The relayer and the nonce its transaction carries: written under the nonce lock before the
   * transaction leaves the instance, so a claim without them was never sent. Once the relayer's
   * mined nonce count passes it, that transaction can no longer be mined.
   */
  relayer?: Address | undefined
  relayerNonce?: number | undefined
  /** The transaction's hash: known before it is sent when the relayer key signs locally. */
  hash?: Hex | undefined
  /** When an instance claimed the session to send it (ms since 1970, the claimer's clock). */
  claimedAt?: number | undefined
}

/** The highest relayer nonce a node accepted, and when (ms since 1970, the sender's clock). */
export type AcceptedNonce = { nonce: number; at: number }

/**
 * What every relay instance shares, by the session id the service answers: the claim on a
 * session (one authorization sent per session) and the relayer's nonces. Each call is durable
 * when it resolves. Implementations: `createPostgresRelayStore`, `createRedisRelayStore`
 * (several instances), `createFileRelayStore` (one process), a Durable Object (Workers, see
 * examples/cloudflare-worker).
 */
export type RelayStore = {
  get(sessionId: string): RelayRecord | undefined | Promise<RelayRecord | undefined>
  /**
   * Atomically (compare-and-set): stores `record` if the session has none, or, with
   * `replacing`, if its record is still exactly `replacing` (see {@link sameRecord}). True when
   * this call stored it: of claims racing on any number of instances, exactly one wins.
   */
  claim(sessionId: string, record: RelayRecord, replacing?: RelayRecord): boolean | Promise<boolean>
  /** Writes the session's record: its claimer adds the transaction hash. */
  set(sessionId: string, record: RelayRecord): void | Promise<void>
  /** Drops the session's record if it is still `record`: the node refused the send. */
  release(sessionId: string, record: RelayRecord): void | Promise<void>
  /**
   * Runs `send` while no other instance runs one for `key` (a relayer on a chain), with the
   * last nonce a node accepted for it; stores the nonce `send` returns, only while it still
   * holds the lock. A crashed instance must not hold the lock for long (a Postgres
   * transaction ends with its connection; a Redis lock expires). `send` calls `assertHeld`
   * right before the transaction leaves: it throws once the lock was lost (a holder that
   * stalled past its lease), so a stale nonce is not sent.
   */
  withNonce<T>(
    key: string,
    send: (
      last: AcceptedNonce | undefined,
      assertHeld: () => Promise<void>,
    ) => Promise<{ nonce: number; result: T }>,
  ): Promise<T>
}

/** A record as text with its fields in one order: what `claim` compares. */
export function serializeRecord(record: RelayRecord): string {
  const { from, nonce, validBefore, network, token, fromBlock } = record
  const { relayer, relayerNonce, hash, claimedAt } = record
  return JSON.stringify({
    from,
    nonce,
    validBefore,
    network,
    token,
    fromBlock,
    relayer,
    relayerNonce,
    hash,
    claimedAt,
  })
}

/** Whether two records are the same claim. */
export function sameRecord(a: RelayRecord | undefined, b: RelayRecord | undefined): boolean {
  return a === b || (!!a && !!b && serializeRecord(a) === serializeRecord(b))
}

/** `withNonce` for one process: one send at a time per key, the last nonce kept in memory. */
export function createLocalNonceLock(): RelayStore['withNonce'] {
  const tails = new Map<string, Promise<unknown>>()
  const accepted = new Map<string, AcceptedNonce>()
  return async (key, send) => {
    const run = (tails.get(key) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => send(accepted.get(key), async () => {}))
      .then(({ nonce, result }) => {
        accepted.set(key, { nonce, at: Date.now() })
        return result
      })
    tails.set(key, run)
    try {
      return await run
    } finally {
      if (tails.get(key) === run) tails.delete(key)
    }
  }
}

/**
 * An in-memory store, for tests only: a restarted relay forgets what it sent and would submit a
 * second authorization for a session whose first transfer is still pending, and another process
 * does not see it at all.
 */
export function createMemoryRelayStoreForTestsOnly(): RelayStore {
  const records = new Map<string, RelayRecord>()
  return {
    get: (sessionId) => records.get(sessionId),
    claim(sessionId, record, replacing) {
      if (!sameRecord(records.get(sessionId), replacing)) return false
      records.set(sessionId, record)
      return true
    },
    set: (sessionId, record) => void records.set(sessionId, record),
    release(sessionId, record) {
      if (sameRecord(records.get(sessionId), record)) records.delete(sessionId)
    },
    withNonce: createLocalNonceLock(),
  }
}
