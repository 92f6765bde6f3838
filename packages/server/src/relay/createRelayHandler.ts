import {
  decimalToUnits,
  eip3009Abi,
  isPaySessionError,
  isPlainId,
  merchantError,
  type PaySessionError,
  transferWithAuthorizationTypes,
  walk,
} from '@paysession/protocol'
import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  HttpRequestError,
  http,
  isAddress,
  isAddressEqual,
  isHex,
  type PublicClient,
  parseGwei,
  recoverTypedDataAddress,
  TimeoutError,
  type WalletClient,
  zeroAddress,
} from 'viem'
import { nonceManager, privateKeyToAccount } from 'viem/accounts'
import type { PaySessionClient } from '../client/createPaySessionClient.js'
import type { PaymentSession } from '../client/types.js'
import { createClientIp, ipRateLimitKey, type TrustProxy } from '../http/clientIp.js'
import { BodyTooLargeError, readBody } from '../http/readBody.js'
import { type RelayErrorCode, relayError } from './errors.js'
import { createTokenBucketRateLimit, type RelayRateLimit } from './rateLimit.js'
import type { RelayRecord, RelayStore, TransferAuthorization } from './types.js'

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

export type RelayHandlerOptions = {
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
   * The merchant's relayer: a private key (sent through viem's nonce manager) or a viem account
   * (give it `nonceManager` too). It pays the gas.
   */
  relayer: Hex | Account
  /** Per service network name (e.g. `BASE`, `LOCAL`): its chain and the tokens relayed there. */
  networks: Record<string, RelayNetwork>
  /**
   * Where sent authorizations are remembered, so that a restart still refuses a second one for
   * a session: `createFileRelayStore(file)` or your own table. Required.
   */
  store: RelayStore
  /** Gas limit of every relayed transaction; a payment that needs more is refused. Default 150 000. */
  maxGas?: bigint
  /**
   * Contract payers (ERC-1271) whose authorizations are relayed. Their signature check runs
   * their code at the relayer's expense, so by default none are: list the ones you trust.
   */
  contractPayers?: Address[] | ((address: Address) => boolean | Promise<boolean>)
  /** Longest accepted validity window (validBefore − now), in seconds. Default 3600. */
  maxValiditySeconds?: number
  /** Shortest remaining validity, so the transaction can still be mined. Default 30. */
  minValiditySeconds?: number
  /** Largest accepted body, read while it streams. Default 16 KiB. */
  maxBodyBytes?: number
  /**
   * Asked before any work, with `ip:<address>` and `session:<id>`; `false` answers 429. Default:
   * {@link createTokenBucketRateLimit}'s, in this process. `false` turns it off.
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
  /** Called once a transaction was sent for a session. */
  onRelayed?: (event: {
    sessionId: string
    /** @deprecated Use `sessionId`; the same value. */
    paymentSessionId: string
    transactionHash: Hex
    authorization: TransferAuthorization
  }) => void
  /** Called for every refused request, e.g. to log it (`error.details` says why). */
  onRejected?: (error: PaySessionError, context: { request: Request }) => void
}

/** A web-standard handler: a Fetch `Request` in, a `Response` out (see `toNodeListener`). */
export type RelayHandler = (request: Request) => Promise<Response>

type RelayRequest = {
  sessionId: string
  token: string
  authorization: TransferAuthorization
  signature: Hex
}

type TokenInfo = { address: Address; name: string; version: string; decimals: number }

type Network = {
  name: string
  config: RelayNetwork
  chain: Chain
  publicClient: PublicClient
  wallet: WalletClient
  tokens: Map<string, Promise<TokenInfo>>
}

const payable: PaymentSession['status'][] = ['CREATED', 'PENDING']

// EIP-3009's events: AuthorizationUsed tells a used authorization from a canceled one.
const authorizationEvents = [
  {
    type: 'event',
    name: 'AuthorizationUsed',
    inputs: [
      { name: 'authorizer', type: 'address', indexed: true },
      { name: 'nonce', type: 'bytes32', indexed: true },
    ],
  },
] as const

/**
 * The relay for gasless payments (EIP-3009): the checkout POSTs a customer's signed
 * `TransferWithAuthorization`, and the relay submits it from the merchant's relayer key, which
 * pays the gas.
 *
 * Cheap checks come first, without any call: the body (read up to `maxBodyBytes` while it
 * streams), the rate limit, the token, the validity window and the signature (recovered offline;
 * a contract payer only when allowed). Everything refused so far, and an unknown session or a
 * `to` that is not the session's one-time wallet, gets one answer, `RELAY_REFUSED`, so a
 * stranger learns nothing about sessions. Then it submits only an authorization for what the
 * session still owes in that token, once per session as the chain judges it (another one is
 * refused while an earlier one is pending and valid, or once one moved the money; a canceled or
 * expired one frees the session), under a gas limit and a fee ceiling, while the relayer holds
 * its floor. Sends go through one queue and viem's nonce manager, so sessions relay in parallel.
 * A refusal is a `PaySessionError` answered as `{ "error": { "code", "message" } }`.
 *
 * Request: `POST { paymentSessionId, token, authorization: { from, to, value, validAfter,
 * validBefore, nonce }, signature }` (integers as decimal strings; `sessionId` is accepted in
 * place of `paymentSessionId`). Answer: `200 { transactionHash }` once sent (not yet mined).
 *
 * @example
 * const relay = createRelayHandler({
 *   client,
 *   relayer: process.env.RELAYER_KEY as Hex,
 *   networks: { BASE: { chainId: 8453, rpcUrl, tokens: { USDC: '0x8335…2913' }, maxFeePerGas: parseGwei('1') } },
 *   store: createFileRelayStore('/var/lib/shop/relay.json'),
 * })
 * app.post('/relay', toNodeListener(relay))
 */
export function createRelayHandler(options: RelayHandlerOptions): RelayHandler {
  if (!options.store || typeof options.store.get !== 'function')
    throw merchantError('INVALID_CONFIG', {
      shortMessage:
        'The relay needs a durable store: pass store: createFileRelayStore(file) or your own table.',
      details: 'Without one a restarted relay would submit a second payment for a session.',
      docsPath: 'docs/server.md#gasless-relay-paysessionserverrelay',
    })
  const store = options.store
  const account =
    typeof options.relayer === 'string'
      ? privateKeyToAccount(options.relayer, { nonceManager })
      : options.relayer
  const maxGas = options.maxGas ?? 150_000n
  const maxValidity = BigInt(options.maxValiditySeconds ?? 3600)
  const minValidity = BigInt(options.minValiditySeconds ?? 30)
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024
  const rateLimit =
    options.rateLimit === false ? undefined : (options.rateLimit ?? createTokenBucketRateLimit())
  const clientIp = options.clientIp ?? createClientIp(options.trustProxy)
  const contractPayers = options.contractPayers ?? []
  const networks = new Map<string, Network>()
  const locks = new Map<string, Promise<unknown>>()
  const cors: Record<string, string> = options.allowOrigin
    ? {
        'access-control-allow-origin': options.allowOrigin,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        vary: 'origin',
      }
    : {}

  function networkOf(name: string): Network | undefined {
    const config = options.networks[name]
    if (!config) return undefined
    let network = networks.get(name)
    if (!network) {
      const chain = defineChain({
        id: config.chainId,
        name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [config.rpcUrl] } },
      })
      const transport = http(config.rpcUrl)
      network = {
        name,
        config,
        chain,
        publicClient: createPublicClient({ chain, transport }),
        wallet: createWalletClient({ account, chain, transport }),
        tokens: new Map(),
      }
      networks.set(name, network)
    }
    return network
  }

  /** The token's EIP-712 domain and decimals: configured, or read once and kept. */
  function tokenOf(network: Network, symbol: string): Promise<TokenInfo> | undefined {
    const entry = Object.entries(network.config.tokens).find(
      ([s]) => s.toUpperCase() === symbol.toUpperCase(),
    )
    if (!entry) return undefined
    const [key, configured] = entry
    let info = network.tokens.get(key)
    if (!info) {
      if (typeof configured === 'object') {
        info = Promise.resolve({ ...configured, address: getAddress(configured.address) })
      } else {
        const address = getAddress(configured)
        const read = <F extends 'name' | 'version' | 'decimals'>(functionName: F) =>
          network.publicClient.readContract({ address, abi: eip3009Abi, functionName })
        info = Promise.all([read('name'), read('version'), read('decimals')]).then(
          ([name, version, decimals]) => ({ address, name, version, decimals }),
        )
        // A failed read is tried again by the next request.
        info.catch(() => network.tokens.delete(key))
      }
      network.tokens.set(key, info)
    }
    return info
  }

  /** Runs `work` after every earlier one for `key` settled: per session, and the send queue. */
  async function exclusively<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = locks.get(key) ?? Promise.resolve()
    const run = before.catch(() => undefined).then(work)
    locks.set(key, run)
    try {
      return await run
    } finally {
      if (locks.get(key) === run) locks.delete(key)
    }
  }

  async function isAllowedContractPayer(address: Address): Promise<boolean> {
    return Array.isArray(contractPayers)
      ? contractPayers.some((allowed) => isAddressEqual(allowed, address))
      : await contractPayers(address)
  }

  /**
   * The offline checks: the networks whose token domain the signature is for. The payer's own
   * key signed it (recovered), or it is a contract payer allowed to pay (ERC-1271, checked by
   * the token on chain in the simulation).
   */
  async function signedFor(body: RelayRequest): Promise<Network[]> {
    const { authorization: auth } = body
    const now = BigInt(Math.floor(Date.now() / 1000))
    // Against this machine's clock, with some slack; the chain's clock is checked later.
    const slack = 60n
    if (auth.value === 0n) refuse('value is 0')
    if (isAddressEqual(auth.to, zeroAddress)) refuse('to is the zero address')
    if (auth.validAfter > now + slack) refuse('validAfter is in the future')
    if (auth.validBefore < now + minValidity - slack) refuse('validBefore has passed')
    if (auth.validBefore > now + maxValidity + slack) refuse('validity window too long')
    const candidates = Object.keys(options.networks)
      .map(networkOf)
      .filter((n): n is Network => !!n && !!tokenOf(n, body.token))
    if (candidates.length === 0) refuse(`no network relays ${body.token}`)
    const signers: Network[] = []
    for (const network of candidates) {
      let token: TokenInfo
      try {
        token = await tokenOf(network, body.token)!
      } catch (error) {
        throw relayError('RELAY_UNAVAILABLE', { details: 'token domain', cause: error })
      }
      const signer = await recoverTypedDataAddress({
        domain: {
          name: token.name,
          version: token.version,
          chainId: network.chain.id,
          verifyingContract: token.address,
        },
        types: transferWithAuthorizationTypes,
        primaryType: 'TransferWithAuthorization',
        message: auth,
        signature: body.signature,
      }).catch(() => undefined)
      if (signer && isAddressEqual(signer, auth.from)) signers.push(network)
    }
    if (signers.length > 0) return signers
    if (await isAllowedContractPayer(auth.from)) return candidates
    return refuse('the signature is not the payer’s, and the payer is no allowed contract')
  }

  async function readSession(id: string): Promise<PaymentSession> {
    const token = await options.sessionTokenOf?.(id)
    if (token)
      try {
        return await options.client.getSession(id, { sessionToken: token })
      } catch (error) {
        if (!isPaySessionError(error, 'SESSION_TOKEN_EXPIRED', 'UNAUTHORIZED', 'FORBIDDEN'))
          throw error
      }
    return options.client.getSession(id)
  }

  /**
   * Whether an earlier authorization for the session still blocks another: while it is
   * pending and valid, or once it moved the money. A canceled or expired one does not.
   */
  async function stillBlocks(previous: RelayRecord, now: bigint): Promise<boolean> {
    const network = networkOf(previous.network)
    if (!network) return true
    const { publicClient } = network
    const used = await authorizationState(
      publicClient,
      previous.token,
      previous.from,
      previous.nonce,
    )
    if (!used) return BigInt(previous.validBefore) > now
    // Used or canceled: only an AuthorizationUsed event says it moved the money.
    const logs = await publicClient
      .getContractEvents({
        address: previous.token,
        abi: authorizationEvents,
        eventName: 'AuthorizationUsed',
        args: { authorizer: previous.from, nonce: previous.nonce },
        fromBlock: BigInt(previous.fromBlock),
      })
      .catch((error) => {
        throw relayError('RELAY_UNAVAILABLE', { details: 'authorization events', cause: error })
      })
    return logs.length > 0
  }

  async function relay(body: RelayRequest, signed: Network[]) {
    const { authorization: auth, signature } = body
    let session: PaymentSession
    try {
      session = await readSession(body.sessionId)
    } catch (error) {
      if (isPaySessionError(error, 'NOT_FOUND', 'SESSION_NOT_FOUND'))
        refuse('the service does not know the session', error)
      throw relayError('RELAY_UNAVAILABLE', { details: 'reading the session', cause: error })
    }
    if (
      !session.oneTimeWalletAddress ||
      !isAddress(session.oneTimeWalletAddress, { strict: false }) ||
      !isAddressEqual(session.oneTimeWalletAddress, auth.to)
    )
      refuse('to is not the session’s one-time wallet')
    // From here on the caller knows the session's one-time wallet: its answers may be precise.
    // The session as the service names it: a caller's variant of the id is the same session.
    const sessionId = session.paymentSessionId
    return exclusively(`session:${sessionId}`, async () => {
      const previous = await store.get(sessionId)
      // The same authorization again (a retried request): its hash, even once the session is paid.
      if (
        previous?.hash &&
        previous.nonce === auth.nonce &&
        isAddressEqual(previous.from, auth.from)
      )
        return previous.hash
      if (!payable.includes(session.status))
        throw relayError('SESSION_NOT_PAYABLE', { details: session.status })
      const networkName = session.network?.toUpperCase() ?? ''
      const network = networkOf(networkName)
      const accepted = session.acceptedTokens?.length
        ? session.acceptedTokens
        : [session.tokenSymbol]
      const tokenInfo = network && tokenOf(network, body.token)
      if (
        !network ||
        !tokenInfo ||
        !accepted.some((s) => s?.toUpperCase() === body.token.toUpperCase())
      )
        throw relayError('UNSUPPORTED_TOKEN', { details: `${body.token} on ${networkName}` })
      // Signed for another chain's or token's domain.
      if (!signed.includes(network)) refuse(`not signed for ${networkName}`)
      const { publicClient } = network
      const token = await tokenInfo
      const block = await publicClient.getBlock().catch((error) => {
        throw relayError('RELAY_UNAVAILABLE', { details: 'latest block', cause: error })
      })
      const now = block.timestamp
      if (auth.validAfter >= now) throw relayError('AUTHORIZATION_NOT_YET_VALID')
      if (auth.validBefore < now + minValidity) throw relayError('AUTHORIZATION_EXPIRED')
      if (auth.validBefore > now + maxValidity) throw relayError('AUTHORIZATION_TOO_LONG')
      const due = owed(session, body.token, token.decimals)
      if (auth.value !== due)
        throw relayError('WRONG_AMOUNT', {
          details: `${auth.value} units, the session owes ${due}`,
        })
      if (previous && !(previous.nonce === auth.nonce && isAddressEqual(previous.from, auth.from)))
        if (await stillBlocks(previous, now)) throw relayError('ALREADY_RELAYED')
      if (await authorizationState(publicClient, token.address, auth.from, auth.nonce))
        throw relayError('AUTHORIZATION_USED')

      const maxFeePerGas = network.config.maxFeePerGas ?? parseGwei('100')
      const floor = network.config.minRelayerBalance ?? maxGas * maxFeePerGas
      const [balance, fees] = await Promise.all([
        publicClient.getBalance({ address: account.address }),
        publicClient.estimateFeesPerGas(),
      ]).catch((error) => {
        throw relayError('RELAY_UNAVAILABLE', { details: 'relayer balance or fees', cause: error })
      })
      if (balance < floor)
        throw relayError('RELAYER_UNDERFUNDED', {
          details: `relayer ${account.address} holds ${balance} wei, the floor is ${floor}`,
        })
      if ((block.baseFeePerGas ?? fees.maxFeePerGas) > maxFeePerGas)
        throw relayError('FEE_TOO_HIGH', {
          details: `base fee ${block.baseFeePerGas} wei, the ceiling is ${maxFeePerGas}`,
        })
      const args = [
        auth.from,
        auth.to,
        auth.value,
        auth.validAfter,
        auth.validBefore,
        auth.nonce,
        signature,
      ] as const
      // The simulation: the token checks the signature (a contract payer's too) and balance;
      // the estimate is what the payer's contract makes the relayer pay.
      let gas: bigint
      try {
        gas = await publicClient.estimateContractGas({
          account,
          address: token.address,
          abi: eip3009Abi,
          functionName: 'transferWithAuthorization',
          args,
        })
      } catch (error) {
        throw revertError(error)
      }
      if (gas > maxGas)
        throw relayError('GAS_LIMIT_EXCEEDED', {
          details: `needs ${gas} gas, the limit is ${maxGas}`,
        })
      const record: RelayRecord = {
        from: auth.from,
        nonce: auth.nonce,
        validBefore: auth.validBefore.toString(),
        network: network.name,
        token: token.address,
        fromBlock: block.number.toString(),
      }
      await store.set(sessionId, record)
      let hash: Hex
      try {
        hash = await exclusively(`send:${network.name}`, () =>
          network.wallet.writeContract({
            account,
            chain: network.chain,
            address: token.address,
            abi: eip3009Abi,
            functionName: 'transferWithAuthorization',
            args,
            // Room over the estimate, never over the limit: a payer's contract that turns
            // costly before the transaction is mined costs the relayer at most this.
            gas: min(maxGas, (gas * 5n) / 4n),
            maxFeePerGas: min(maxFeePerGas, fees.maxFeePerGas),
            maxPriorityFeePerGas: min(fees.maxPriorityFeePerGas, maxFeePerGas),
          }),
        )
      } catch (error) {
        // The node answered and refused it: nothing was sent and the session stays payable.
        // No answer (timeout, connection lost): it may have been sent, so the record stays and
        // blocks another authorization until this one is used, canceled or expired.
        if (!walk(error, (e) => e instanceof TimeoutError || e instanceof HttpRequestError))
          await store.delete(sessionId)
        throw revertError(error)
      }
      await store.set(sessionId, { ...record, hash })
      options.onRelayed?.({
        sessionId,
        paymentSessionId: sessionId,
        transactionHash: hash,
        authorization: auth,
      })
      return hash
    })
  }

  return async function handleRelay(request: Request): Promise<Response> {
    try {
      if (request.method === 'OPTIONS' && options.allowOrigin)
        return new Response(null, { status: 204, headers: cors })
      if (request.method !== 'POST') throw relayError('METHOD_NOT_ALLOWED')
      const ip = clientIp(request)
      if (rateLimit && !(await rateLimit(ipRateLimitKey(ip))))
        throw relayError('RATE_LIMITED', {
          details: ip ? `ip ${ip}` : 'ip unknown: set trustProxy',
        })
      let bytes: Uint8Array
      try {
        bytes = await readBody(request, maxBodyBytes)
      } catch (error) {
        if (error instanceof BodyTooLargeError)
          throw relayError('PAYLOAD_TOO_LARGE', { details: error.message })
        throw relayError('RELAY_REFUSED', { details: 'the body could not be read', cause: error })
      }
      const body = parseRequest(bytes)
      if (rateLimit && !(await rateLimit(`session:${body.sessionId}`)))
        throw relayError('RATE_LIMITED', { details: `session ${body.sessionId}` })
      const signed = await signedFor(body)
      return json(200, { transactionHash: await relay(body, signed) }, cors)
    } catch (thrown) {
      const error = isPaySessionError(thrown)
        ? thrown
        : relayError('RELAY_UNAVAILABLE', { cause: thrown })
      options.onRejected?.(error, { request })
      const status = error.status ?? 503
      return json(
        status,
        { error: { code: error.code, message: error.shortMessage } },
        { ...cors, ...(status === 405 ? { allow: 'POST' } : {}) },
      )
    }
  }
}

/** The one answer for what fails before the relay knows the caller holds the session. */
function refuse(details: string, cause?: unknown): never {
  throw relayError('RELAY_REFUSED', { details, cause })
}

function parseRequest(bytes: Uint8Array): RelayRequest {
  let body: unknown
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    refuse('body is not JSON')
  }
  const record = (value: unknown, name: string) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : refuse(`${name} must be an object`)
  const b = record(body, 'body')
  const a = record(b['authorization'], 'authorization')
  const string = (value: unknown, name: string) =>
    typeof value === 'string' && value !== '' && value.length <= 200
      ? value
      : refuse(`${name} must be a string`)
  const address = (value: unknown, name: string) =>
    typeof value === 'string' && isAddress(value, { strict: false })
      ? getAddress(value)
      : refuse(`${name} must be an address`)
  // Integers as decimal strings (numbers would lose precision); a JSON number is refused.
  const uint = (value: unknown, name: string) =>
    typeof value === 'string' && /^(0|[1-9]\d{0,77})$/.test(value)
      ? BigInt(value)
      : refuse(`${name} must be a decimal integer string`)
  const nonce = a['nonce']
  if (typeof nonce !== 'string' || !isHex(nonce) || nonce.length !== 66)
    refuse('authorization.nonce must be 32 bytes of hex')
  const signature = b['signature']
  if (typeof signature !== 'string' || !isHex(signature) || signature.length < 4)
    refuse('signature must be hex')
  const sessionId = string(b['paymentSessionId'] ?? b['sessionId'], 'paymentSessionId')
  // `.` and `..` would be steps up the session's URL, which is read with the API key.
  if (!isPlainId(sessionId)) refuse('paymentSessionId is not a plain id')
  return {
    sessionId,
    token: string(b['token'], 'token'),
    authorization: {
      from: address(a['from'], 'authorization.from'),
      to: address(a['to'], 'authorization.to'),
      value: uint(a['value'], 'authorization.value'),
      validAfter: uint(a['validAfter'], 'authorization.validAfter'),
      validBefore: uint(a['validBefore'], 'authorization.validBefore'),
      nonce: nonce as Hex,
    },
    signature: signature as Hex,
  }
}

/**
 * What the session still owes in `symbol`, in token units: its amount less what it received in
 * that token (the service counts per token), and 0 once it received enough or more.
 */
export function owed(session: PaymentSession, symbol: string, decimals: number): bigint {
  const amount = decimalToUnits(session.amount, decimals)
  if (!amount) throw relayError('SESSION_NOT_PAYABLE', { details: `amount ${session.amount}` })
  const inThisToken = session.tokenSymbol?.toUpperCase() === symbol.toUpperCase()
  const received = inThisToken ? (decimalToUnits(session.receivedAmount, decimals) ?? 0n) : 0n
  return received >= amount ? 0n : amount - received
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}

function authorizationState(client: PublicClient, token: Address, from: Address, nonce: Hex) {
  return client
    .readContract({
      address: token,
      abi: eip3009Abi,
      functionName: 'authorizationState',
      args: [from, nonce],
    })
    .catch((error) => {
      throw relayError('RELAY_UNAVAILABLE', { details: 'authorizationState', cause: error })
    })
}

function revertError(error: unknown): PaySessionError {
  const text = String((error as { message?: unknown })?.message ?? error)
  const code: RelayErrorCode = /used or canceled/.test(text)
    ? 'AUTHORIZATION_USED'
    : /invalid signature/.test(text)
      ? 'INVALID_SIGNATURE'
      : /exceeds balance/.test(text)
        ? 'INSUFFICIENT_BALANCE'
        : /expired/.test(text)
          ? 'AUTHORIZATION_EXPIRED'
          : /not yet valid/.test(text)
            ? 'AUTHORIZATION_NOT_YET_VALID'
            : 'RELAY_UNAVAILABLE'
  return relayError(code, { details: text.split('\n')[0], cause: error })
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}
