import type { Address, Hex } from 'viem'

/** Why the relay refused an authorization: a stable code, with its HTTP status. */
export const relayRejections = {
  METHOD_NOT_ALLOWED: 405,
  INVALID_REQUEST: 400,
  SESSION_NOT_FOUND: 404,
  SESSION_NOT_PAYABLE: 409,
  UNSUPPORTED_TOKEN: 422,
  WRONG_RECIPIENT: 422,
  WRONG_AMOUNT: 422,
  AUTHORIZATION_NOT_YET_VALID: 422,
  AUTHORIZATION_EXPIRED: 422,
  AUTHORIZATION_TOO_LONG: 422,
  INVALID_SIGNATURE: 422,
  INSUFFICIENT_BALANCE: 422,
  AUTHORIZATION_USED: 409,
  ALREADY_RELAYED: 409,
  RELAY_UNAVAILABLE: 503,
} as const

export type RelayRejectionCode = keyof typeof relayRejections

/** The EIP-3009 `TransferWithAuthorization` message the customer signed. */
export type TransferAuthorization = {
  from: Address
  to: Address
  value: bigint
  validAfter: bigint
  validBefore: bigint
  nonce: Hex
}

/** What the relay remembers per session, so it submits for a session once. */
export type RelayRecord = {
  from: Address
  nonce: Hex
  validBefore: string
  hash?: Hex | undefined
}

/**
 * Where submitted authorizations are remembered, by session id. `set` is called before the
 * transaction is sent (write-ahead) and again with its hash; it must be durable when it returns.
 * The default lives in memory: after a restart the same authorization still moves money only
 * once (its EIP-3009 nonce), but a second, different authorization for a session whose first
 * transfer the service has not counted yet would be submitted. Use `createFileRelayStore` or a
 * table keyed by session id so a restart still refuses it (docs/server.md, "After a restart").
 */
export type RelayStore = {
  get(sessionId: string): RelayRecord | undefined | Promise<RelayRecord | undefined>
  set(sessionId: string, record: RelayRecord): void | Promise<void>
}

/** The default store: in memory, forgotten on restart. */
export function createMemoryRelayStore(): RelayStore {
  const records = new Map<string, RelayRecord>()
  return {
    get: (sessionId) => records.get(sessionId),
    set: (sessionId, record) => void records.set(sessionId, record),
  }
}
