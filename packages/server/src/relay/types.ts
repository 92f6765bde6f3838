// viem's own spellings, written here so the stores' entries need no viem (an optional peer).
type Address = `0x${string}`
type Hex = `0x${string}`

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
 * A claim on a session: the one authorization being paid for it, and what is known of its
 * sending. Every route (the relay, x402 through the relayer or a facilitator) writes this one
 * format, and `judgeClaim` reads any of them the same way.
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
  /** When an instance claimed the session (ms since 1970, the claimer's clock). */
  claimedAt?: number | undefined
  /**
   * The relayer and the nonce its transaction carries, the transaction's hash and its signed
   * bytes: written before the transaction leaves the instance, so a claim without them was
   * never sent by a relayer, and any instance can send the same bytes again.
   */
  relayer?: Address | undefined
  relayerNonce?: number | undefined
  hash?: Hex | undefined
  raw?: Hex | undefined
  /**
   * The facilitator asked to settle it: written before `/settle` is called. Its outcome is
   * unknown until the authorization is used or can no longer be mined (`validBefore`).
   */
  facilitator?: string | undefined
}

/**
 * What every relay instance shares: text by key, compared and set atomically. The relay keeps
 * on it the claim per session, the payment in flight per payer and the nonces per relayer key.
 * Each call is durable when it resolves. Implementations: `createPostgresRelayStore`,
 * `createRedisRelayStore` (several instances), `createFileRelayStore` (one process), a Durable
 * Object (Workers, see examples/cloudflare-worker).
 */
export type RelayStore = {
  get(key: string): string | undefined | Promise<string | undefined>
  /**
   * Atomically: writes `value` (or deletes the key, with `undefined`) if the key's text is still
   * `expected` (`undefined`: the key is absent). True when this call changed it: of calls racing
   * on any number of instances with the same `expected`, exactly one succeeds.
   */
  compareAndSet(
    key: string,
    value: string | undefined,
    expected: string | undefined,
  ): boolean | Promise<boolean>
}

/** A record as text with its fields in one order: what a claim compares. */
export function serializeRecord(record: RelayRecord): string {
  const { from, nonce, validBefore, network, token, fromBlock, claimedAt } = record
  const { relayer, relayerNonce, hash, raw, facilitator } = record
  return JSON.stringify({
    from,
    nonce,
    validBefore,
    network,
    token,
    fromBlock,
    claimedAt,
    relayer,
    relayerNonce,
    hash,
    raw,
    facilitator,
  })
}

/**
 * An in-memory store, for tests only: a restarted relay forgets what it sent and would submit a
 * second authorization for a session whose first transfer is still pending, and another process
 * does not see it at all.
 */
export function createMemoryRelayStoreForTestsOnly(): RelayStore {
  const values = new Map<string, string>()
  return {
    get: (key) => values.get(key),
    compareAndSet(key, value, expected) {
      if (values.get(key) !== expected) return false
      if (value === undefined) values.delete(key)
      else values.set(key, value)
      return true
    },
  }
}
