import { eip3009Abi, transferWithAuthorizationTypes } from '@paysession/protocol'
import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  isAddress,
  isHex,
  type PublicClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { PaySessionClient } from '../client/createPaySessionClient.js'
import type { PaymentSession } from '../client/types.js'
import { isPaySessionError } from '../errors/index.js'
import { RelayError } from './RelayError.js'
import { createMemoryRelayStore, type RelayStore, type TransferAuthorization } from './types.js'

export type RelayNetwork = {
  chainId: number
  rpcUrl: string
  /** Token symbol → address of the tokens with EIP-3009 this relay submits for. */
  tokens: Record<string, Address>
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
  /** The merchant's relayer: a private key or a viem account. It pays the gas. */
  relayer: Hex | Account
  /** Per service network name (e.g. `BASE`, `LOCAL`): its chain and the tokens relayed there. */
  networks: Record<string, RelayNetwork>
  /** Longest accepted validity window (validBefore − now), in seconds. Default 3600. */
  maxValiditySeconds?: number
  /** Shortest remaining validity, so the transaction can still be mined. Default 30. */
  minValiditySeconds?: number
  /** Where submitted authorizations are remembered. Default: in memory. */
  store?: RelayStore
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
  /** Called for every refused request, e.g. to log it. */
  onRejected?: (error: RelayError, context: { request: Request }) => void
}

/** A web-standard handler: a Fetch `Request` in, a `Response` out (see `toNodeListener`). */
export type RelayHandler = (request: Request) => Promise<Response>

const payable: PaymentSession['status'][] = ['CREATED', 'PENDING']

/**
 * The relay for gasless payments (EIP-3009): the checkout POSTs a customer's signed
 * `TransferWithAuthorization`, and the relay submits it from the merchant's relayer key, which
 * pays the gas. It submits only an authorization whose `to` is the session's one-time wallet
 * and whose `value` is what the session still owes, in a token configured for the session's
 * network that the session accepts, valid now and for at most `maxValiditySeconds`, and only
 * once per session. Anything else is refused with a {@link RelayError} code, as
 * `{ "error": { "code", "message" } }`.
 *
 * Request: `POST { paymentSessionId, token, authorization: { from, to, value, validAfter,
 * validBefore, nonce }, signature }` (integers as decimal strings; `sessionId` is accepted in
 * place of `paymentSessionId`, the session's field name on the service's wire). Answer:
 * `200 { transactionHash }` once sent (not yet mined).
 *
 * @example
 * const relay = createRelayHandler({
 *   client,
 *   relayer: process.env.RELAYER_KEY as Hex,
 *   networks: { BASE: { chainId: 8453, rpcUrl, tokens: { USDC: '0x8335…2913' } } },
 * })
 * app.post('/relay', toNodeListener(relay))
 */
export function createRelayHandler(options: RelayHandlerOptions): RelayHandler {
  const account =
    typeof options.relayer === 'string' ? privateKeyToAccount(options.relayer) : options.relayer
  const store = options.store ?? createMemoryRelayStore()
  const maxValidity = BigInt(options.maxValiditySeconds ?? 3600)
  const minValidity = BigInt(options.minValiditySeconds ?? 30)
  const chains = new Map<string, { chain: Chain; publicClient: PublicClient }>()
  const inFlight = new Map<string, Promise<unknown>>()
  const cors: Record<string, string> = options.allowOrigin
    ? {
        'access-control-allow-origin': options.allowOrigin,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        vary: 'origin',
      }
    : {}

  function clientsFor(name: string, network: RelayNetwork) {
    let clients = chains.get(name)
    if (!clients) {
      const chain = defineChain({
        id: network.chainId,
        name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [network.rpcUrl] } },
      })
      clients = {
        chain,
        publicClient: createPublicClient({ chain, transport: http(network.rpcUrl) }),
      }
      chains.set(name, clients)
    }
    return clients
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

  async function relay(body: RelayRequest): Promise<Hex> {
    const { paymentSessionId, authorization: auth, signature } = body
    // The same authorization again (a retried request): its hash, even once the session is paid.
    const previous = await store.get(paymentSessionId)
    if (previous?.nonce === auth.nonce && previous.hash) return previous.hash
    let session: PaymentSession
    try {
      session = await readSession(paymentSessionId)
    } catch (error) {
      if (isPaySessionError(error, 'NOT_FOUND', 'SESSION_NOT_FOUND'))
        throw new RelayError('SESSION_NOT_FOUND', { cause: error })
      throw new RelayError('RELAY_UNAVAILABLE', { cause: error })
    }
    if (!payable.includes(session.status)) throw new RelayError('SESSION_NOT_PAYABLE')
    const networkName = session.network?.toUpperCase() ?? ''
    const network = options.networks[networkName]
    const symbol = body.token.toUpperCase()
    const accepted = session.acceptedTokens?.length ? session.acceptedTokens : [session.tokenSymbol]
    const tokenAddress = network?.tokens[symbol]
    if (!network || !tokenAddress || !accepted.some((s) => s?.toUpperCase() === symbol))
      throw new RelayError('UNSUPPORTED_TOKEN', { details: `${symbol} on ${networkName}` })
    const token = getAddress(tokenAddress)
    if (
      !session.oneTimeWalletAddress ||
      !isAddress(session.oneTimeWalletAddress, { strict: false }) ||
      getAddress(session.oneTimeWalletAddress) !== auth.to
    )
      throw new RelayError('WRONG_RECIPIENT')

    const { chain, publicClient } = clientsFor(networkName, network)
    let name: string
    let version: string
    let decimals: number
    let now: bigint
    try {
      ;[name, version, decimals, now] = await Promise.all([
        publicClient.readContract({ address: token, abi: eip3009Abi, functionName: 'name' }),
        publicClient.readContract({ address: token, abi: eip3009Abi, functionName: 'version' }),
        publicClient.readContract({ address: token, abi: eip3009Abi, functionName: 'decimals' }),
        publicClient.getBlock().then((block) => block.timestamp),
      ])
    } catch (error) {
      throw new RelayError('RELAY_UNAVAILABLE', { cause: error })
    }
    if (auth.value !== owed(session, decimals))
      throw new RelayError('WRONG_AMOUNT', {
        details: `${auth.value} units, the session owes ${owed(session, decimals)}`,
      })
    if (auth.validAfter >= now) throw new RelayError('AUTHORIZATION_NOT_YET_VALID')
    if (auth.validBefore < now + minValidity) throw new RelayError('AUTHORIZATION_EXPIRED')
    if (auth.validBefore > now + maxValidity) throw new RelayError('AUTHORIZATION_TOO_LONG')
    const domain = { name, version, chainId: chain.id, verifyingContract: token }
    // ERC-1271 too: a smart account's signature is checked by the account itself.
    const valid = await publicClient
      .verifyTypedData({
        address: auth.from,
        domain,
        types: transferWithAuthorizationTypes,
        primaryType: 'TransferWithAuthorization',
        message: auth,
        signature,
      })
      .catch(() => false)
    if (!valid) throw new RelayError('INVALID_SIGNATURE')

    // Once per session. The same authorization again is safe (its nonce lets it move money only
    // once) and answers with the same hash; another one is refused while the first can still run.
    if (previous && previous.nonce !== auth.nonce) {
      const used = await authorizationUsed(publicClient, token, previous.from, previous.nonce)
      if (used || BigInt(previous.validBefore) > now) throw new RelayError('ALREADY_RELAYED')
    }
    if (await authorizationUsed(publicClient, token, auth.from, auth.nonce))
      throw new RelayError('AUTHORIZATION_USED')

    const args = [
      auth.from,
      auth.to,
      auth.value,
      auth.validAfter,
      auth.validBefore,
      auth.nonce,
      signature,
    ] as const
    try {
      await publicClient.simulateContract({
        account,
        address: token,
        abi: eip3009Abi,
        functionName: 'transferWithAuthorization',
        args,
      })
    } catch (error) {
      throw revertError(error)
    }
    await store.set(paymentSessionId, {
      from: auth.from,
      nonce: auth.nonce,
      validBefore: auth.validBefore.toString(),
    })
    const wallet = createWalletClient({ account, chain, transport: http(network.rpcUrl) })
    let hash: Hex
    try {
      hash = await wallet.writeContract({
        address: token,
        abi: eip3009Abi,
        functionName: 'transferWithAuthorization',
        args,
      })
    } catch (error) {
      // A node that estimates gas against pending transactions refuses an authorization already
      // submitted but not yet mined (a restarted relay's memory store forgot it): nothing sent.
      throw revertError(error)
    }
    await store.set(paymentSessionId, {
      from: auth.from,
      nonce: auth.nonce,
      validBefore: auth.validBefore.toString(),
      hash,
    })
    options.onRelayed?.({
      sessionId: paymentSessionId,
      paymentSessionId,
      transactionHash: hash,
      authorization: auth,
    })
    return hash
  }

  return async function handleRelay(request: Request): Promise<Response> {
    try {
      if (request.method === 'OPTIONS' && options.allowOrigin)
        return new Response(null, { status: 204, headers: cors })
      if (request.method !== 'POST') throw new RelayError('METHOD_NOT_ALLOWED')
      const body = parseRequest(await request.text().catch(() => ''))
      const key = body.paymentSessionId
      for (let running = inFlight.get(key); running; running = inFlight.get(key))
        await running.catch(() => undefined)
      const work = relay(body)
      inFlight.set(key, work)
      try {
        return json(200, { transactionHash: await work }, cors)
      } finally {
        if (inFlight.get(key) === work) inFlight.delete(key)
      }
    } catch (thrown) {
      const error =
        thrown instanceof RelayError
          ? thrown
          : new RelayError('RELAY_UNAVAILABLE', { cause: thrown })
      options.onRejected?.(error, { request })
      return json(
        error.status,
        { error: { code: error.code, message: error.message } },
        { ...cors, ...(error.status === 405 ? { allow: 'POST' } : {}) },
      )
    }
  }
}

type RelayRequest = {
  paymentSessionId: string
  token: string
  authorization: TransferAuthorization
  signature: Hex
}

function parseRequest(text: string): RelayRequest {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new RelayError('INVALID_REQUEST', { details: 'body is not JSON' })
  }
  const fail = (details: string): never => {
    throw new RelayError('INVALID_REQUEST', { details })
  }
  const record = (value: unknown, name: string) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : fail(`${name} must be an object`)
  const b = record(body, 'body')
  const a = record(b['authorization'], 'authorization')
  const string = (value: unknown, name: string) =>
    typeof value === 'string' && value !== '' ? value : fail(`${name} must be a string`)
  const address = (value: unknown, name: string) =>
    typeof value === 'string' && isAddress(value, { strict: false })
      ? getAddress(value)
      : fail(`${name} must be an address`)
  // Integers as decimal strings (numbers would lose precision); a JSON number is refused.
  const uint = (value: unknown, name: string) =>
    typeof value === 'string' && /^(0|[1-9]\d{0,77})$/.test(value)
      ? BigInt(value)
      : fail(`${name} must be a decimal integer string`)
  const nonce = a['nonce']
  if (typeof nonce !== 'string' || !isHex(nonce) || nonce.length !== 66)
    fail('authorization.nonce must be 32 bytes of hex')
  const signature = b['signature']
  if (typeof signature !== 'string' || !isHex(signature) || signature.length < 4)
    fail('signature must be hex')
  return {
    paymentSessionId: string(b['paymentSessionId'] ?? b['sessionId'], 'paymentSessionId'),
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

/** What the session still owes, in token units: its amount less what it has received. */
function owed(session: PaymentSession, decimals: number): bigint {
  const amount = toUnits(session.amount, decimals)
  const received = toUnits(session.receivedAmount, decimals) ?? 0n
  if (amount === undefined) throw new RelayError('SESSION_NOT_PAYABLE', { details: 'no amount' })
  return received > 0n && received < amount ? amount - received : amount
}

function toUnits(value: string | undefined, decimals: number): bigint | undefined {
  const match = value === undefined ? null : /^(\d+)(?:\.(\d+))?$/.exec(value)
  if (!match) return undefined
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  if (fraction.length > decimals) return undefined
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
}

function authorizationUsed(client: PublicClient, token: Address, from: Address, nonce: Hex) {
  return client
    .readContract({
      address: token,
      abi: eip3009Abi,
      functionName: 'authorizationState',
      args: [from, nonce],
    })
    .catch((error) => {
      throw new RelayError('RELAY_UNAVAILABLE', { cause: error })
    })
}

function revertError(error: unknown): RelayError {
  const text = String((error as { message?: unknown })?.message ?? error)
  if (/used or canceled/.test(text)) return new RelayError('AUTHORIZATION_USED', { cause: error })
  if (/invalid signature/.test(text)) return new RelayError('INVALID_SIGNATURE', { cause: error })
  if (/exceeds balance/.test(text)) return new RelayError('INSUFFICIENT_BALANCE', { cause: error })
  if (/expired/.test(text)) return new RelayError('AUTHORIZATION_EXPIRED', { cause: error })
  if (/not yet valid/.test(text))
    return new RelayError('AUTHORIZATION_NOT_YET_VALID', { cause: error })
  return new RelayError('RELAY_UNAVAILABLE', { cause: error })
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}
