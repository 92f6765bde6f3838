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
  /** Missing while the transaction is being sent (or when it is unknown whether it was). */
  hash?: Hex | undefined
}

/**
 * Where the relay remembers, by the session id the service answers, the authorization it is
 * sending. `set` is called before the transaction is sent (write-ahead) and again with its hash,
 * `delete` when the node refused it (nothing sent); each must be durable when it returns. Use
 * `createFileRelayStore`, or a table keyed by session id where several processes relay.
 */
export type RelayStore = {
  get(sessionId: string): RelayRecord | undefined | Promise<RelayRecord | undefined>
  set(sessionId: string, record: RelayRecord): void | Promise<void>
  delete(sessionId: string): void | Promise<void>
}

/**
 * An in-memory store, for tests only: a restarted relay forgets what it sent and would submit a
 * second authorization for a session whose first transfer is still pending.
 */
export function createMemoryRelayStoreForTestsOnly(): RelayStore {
  const records = new Map<string, RelayRecord>()
  return {
    get: (sessionId) => records.get(sessionId),
    set: (sessionId, record) => void records.set(sessionId, record),
    delete: (sessionId) => void records.delete(sessionId),
  }
}
