import { type Clock, merchantError, type PaySessionError, systemClock } from '@paysession/protocol'
import type { Address, Hex, LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { PaySessionClient } from '../client/createPaySessionClient.js'
import type { TrustProxy } from '../http/clientIp.js'
import { createTokenBucketRateLimit, type RelayRateLimit } from './rateLimit.js'
import type { RelayStore, TransferAuthorization } from './types.js'

/** A token the relay submits for: its address, and optionally its EIP-712 domain and decimals. */
export type RelayToken =
  | Address
  | { address: Address; name: string; version: string; decimals: number }

export type RelayNetwork = {
  chainId: number
  rpcUrl: string
  /**
   * Token symbol → the token (with EIP-3009). With only its address, its EIP-712 name and
   * version and its decimals are read from the chain once, on first use.
   */
  tokens: Record<string, RelayToken>
  /** Highest fee per gas the relayer pays, in wei. Default 100 gwei. */
  maxFeePerGas?: bigint
  /**
   * Native balance below which the relayer refuses to send (`RELAYER_UNDERFUNDED`), in wei.
   * Default: one payment at the ceiling, `maxGas × maxFeePerGas`.
   */
  minRelayerBalance?: bigint
}

/** A relayer key: a private key, or a viem local account (it signs here). */
export type Relayer = Hex | LocalAccount

/** Everything the relay's rules need: {@link createRelay} takes these. */
export type RelayOptions = {
  /** Reads the session (one-time wallet, amount, status): see `sessionTokenOf`. */
  client: Pick<PaySessionClient, 'getSession'>
  /**
   * The session token you stored when you created the session. Section 5 of the spec lists only
   * it for reading a session, so a service that follows it refuses the API key there: with this
   * the relay reads with the token first, and with the API key only when there is none or it is
   * refused (as `confirmStatus` does).
   */
  sessionTokenOf?: (sessionId: string) => string | undefined | Promise<string | undefined>
  /**
   * The merchant's relayer: a private key or a viem local account, or several. It pays the gas.
   * Each key is a lane with its own nonces, kept in the store, so any number of relay instances
   * may share the keys; throughput grows with the keys.
   */
  relayer: Relayer | Relayer[]
  /** Per service network name (e.g. `BASE`, `LOCAL`): its chain and the tokens relayed there. */
  networks: Record<string, RelayNetwork>
  /**
   * What every relay instance shares: the claim per session and the relayer's nonces. One
   * process: `createFileRelayStore(file)`; several instances: `createPostgresRelayStore(sql)`
   * or `createRedisRelayStore(redis)` (docs/server.md#which-store). Required.
   */
  store: RelayStore
  /** The time claims are dated and leases judged by, and the relay's timers (`systemClock`). */
  clock?: Pick<Clock, 'now'> & Partial<Clock>
  /** Gas limit of every relayed transaction; a payment that needs more is refused. Default 150 000. */
  maxGas?: bigint
  /**
   * Contract payers (ERC-1271), and accounts with code such as EIP-7702 delegations, whose
   * authorizations are relayed. Their signature check runs their code at the relayer's expense,
   * so by default none are: list the ones you trust.
   */
  contractPayers?: Address[] | ((address: Address) => boolean | Promise<boolean>)
  /** Longest accepted validity window (validBefore − now), in seconds. Default 3600. */
  maxValiditySeconds?: number
  /** Shortest remaining validity, so the transaction can still be mined. Default 30. */
  minValiditySeconds?: number
  /** Called once a transaction was sent for a session. */
  onRelayed?: (event: {
    sessionId: string
    /** @deprecated Use `sessionId`; the same value. */
    paymentSessionId: string
    transactionHash: Hex
    authorization: TransferAuthorization
  }) => void
}

export type RelayHandlerOptions = RelayOptions & {
  /** Largest accepted body, read while it streams. Default 16 KiB. */
  maxBodyBytes?: number
  /**
   * Asked before any work, with `ip:<address>` and `session:<id>`; `false` answers 429. Default:
   * {@link createTokenBucketRateLimit}'s, in this process; several instances share
   * `createPostgresRateLimit` or `createRedisRateLimit`. `false` turns it off.
   */
  rateLimit?: RelayRateLimit | false
  /**
   * The proxies in front of the relay that may say who the caller is, for the per-IP rate limit
   * (`false`, `'cloudflare'`, a number of proxies, or their CIDRs: see `TrustProxy`). Default
   * `false`: the peer's address (`toNodeListener`, or `setClientAddress` in another runtime).
   * Callers whose address cannot be told share one limit, `ip:unknown`.
   */
  trustProxy?: TrustProxy
  /** The caller's IP for the rate limit, read your own way. Default: `createClientIp(trustProxy)`. */
  clientIp?: (request: Request) => string | undefined
  /** Answer CORS requests from this origin (when the checkout runs on another origin). */
  allowOrigin?: string
  /** Called for every refused request, e.g. to log it (`error.details` says why). */
  onRejected?: (error: PaySessionError, context: { request: Request }) => void
}

/** The options with their defaults, checked once when the relay is built. */
export type ResolvedRelayOptions = Omit<RelayOptions, 'relayer'> & {
  clock: Clock
  /** The relayer keys; none when a facilitator sends. */
  accounts: LocalAccount[]
  maxGas: bigint
  maxValidity: bigint
  minValidity: bigint
}

const docsPath = 'docs/server.md#gasless-relay-paysessionserverrelay'

function invalid(shortMessage: string, details?: string): never {
  throw merchantError('INVALID_CONFIG', { shortMessage, details, docsPath })
}

/** Checks the options when the relay is built, so a mistake fails at deploy, not on a payment. */
export function resolveRelayOptions(
  options: Omit<RelayOptions, 'relayer'> & { relayer?: RelayOptions['relayer'] | undefined },
  { withoutRelayer = false } = {},
): ResolvedRelayOptions {
  const store = options.store as Partial<RelayStore> | undefined
  if (!store || typeof store.get !== 'function')
    invalid(
      'The relay needs a durable store: pass store: createFileRelayStore(file) for one process, or a shared one (createPostgresRelayStore, createRedisRelayStore).',
      'Without one a restarted relay would submit a second payment for a session.',
    )
  if (typeof store.compareAndSet !== 'function')
    invalid(
      'The relay store has no compareAndSet(): use createPostgresRelayStore, createRedisRelayStore or createFileRelayStore, or implement RelayStore.',
    )
  if (typeof options.client?.getSession !== 'function')
    invalid('The relay needs client: createPaySessionClient({ apiBase, apiKey }).')
  const relayers = options.relayer === undefined ? [] : [options.relayer].flat()
  if (relayers.length === 0 && !withoutRelayer)
    invalid('The relay needs relayer: the private key (or keys) that pays the gas.')
  const accounts = relayers.map((relayer) => {
    const account =
      typeof relayer === 'string' && /^0x[0-9a-fA-F]{64}$/.test(relayer)
        ? privateKeyToAccount(relayer)
        : relayer
    if (
      !account ||
      typeof account !== 'object' ||
      typeof account.address !== 'string' ||
      typeof account.signTransaction !== 'function'
    )
      invalid(
        'relayer must be a private key (0x and 64 hex digits) or a viem local account, or a list of them.',
        'The relay signs each transaction itself, so that its bytes are kept and can be sent again.',
      )
    return account
  })
  if (new Set(accounts.map((a) => a.address.toLowerCase())).size !== accounts.length)
    invalid('relayer lists the same key twice.')
  if (!options.networks || typeof options.networks !== 'object')
    invalid('The relay needs networks: { NAME: { chainId, rpcUrl, tokens } }.')
  for (const [name, network] of Object.entries(options.networks)) {
    if (!Number.isSafeInteger(network.chainId) || network.chainId <= 0)
      invalid(`networks.${name}.chainId must be a positive integer.`)
    if (typeof network.rpcUrl !== 'string' || !/^(https?|wss?):\/\//.test(network.rpcUrl))
      invalid(`networks.${name}.rpcUrl must be an http(s) or ws(s) URL.`)
  }
  const seconds = (value: number | undefined, fallback: number, name: string) => {
    const v = value ?? fallback
    if (!Number.isSafeInteger(v) || v < 0) invalid(`${name} must be a whole number of seconds.`)
    return BigInt(v)
  }
  const maxGas = options.maxGas ?? 150_000n
  if (typeof maxGas !== 'bigint' || maxGas <= 0n) invalid('maxGas must be a positive bigint.')
  return {
    ...options,
    clock: clockOf(options.clock),
    accounts,
    maxGas,
    maxValidity: seconds(options.maxValiditySeconds, 3600, 'maxValiditySeconds'),
    minValidity: seconds(options.minValiditySeconds, 30, 'minValiditySeconds'),
  }
}

/** The handler's HTTP options with their defaults. */
export function resolveHandlerOptions(options: RelayHandlerOptions) {
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0)
    invalid('maxBodyBytes must be a positive whole number.')
  return {
    maxBodyBytes,
    rateLimit:
      options.rateLimit === false ? undefined : (options.rateLimit ?? createTokenBucketRateLimit()),
  }
}

/** The caller's clock, with the system's timers where it has none (a test may give only `now`). */
function clockOf(clock: RelayOptions['clock']): Clock {
  if (!clock) return systemClock
  return {
    now: () => clock.now(),
    setTimeout: (callback, ms) => (clock.setTimeout ?? systemClock.setTimeout)(callback, ms),
    clearTimeout: (timer) => (clock.clearTimeout ?? systemClock.clearTimeout)(timer),
  }
}
