import { decimalToUnits, eip3009Abi, isPaySessionError } from '@paysession/protocol'
import {
  type Address,
  type Hex,
  isAddress,
  isAddressEqual,
  type PublicClient,
  parseGwei,
  TransactionReceiptNotFoundError,
} from 'viem'
import type { PaymentSession } from '../client/types.js'
import { classifyError } from './classifyError.js'
import { assertPayerPolicy } from './contractPayers.js'
import { relayError } from './errors.js'
import type { Network, TokenInfo } from './networks.js'
import type { ResolvedRelayOptions } from './options.js'
import { type RelayRequest, refuse } from './parseRequest.js'
import type { RelayRecord } from './types.js'

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

/** The session, read with its token first (see `sessionTokenOf`), then with the API key. */
export async function readSession(
  options: ResolvedRelayOptions,
  request: RelayRequest,
): Promise<PaymentSession> {
  const id = request.sessionId
  try {
    const token = await options.sessionTokenOf?.(id)
    if (token)
      try {
        return await options.client.getSession(id, { sessionToken: token })
      } catch (error) {
        if (!isPaySessionError(error, 'SESSION_TOKEN_EXPIRED', 'UNAUTHORIZED', 'FORBIDDEN'))
          throw error
      }
    return await options.client.getSession(id)
  } catch (error) {
    if (isPaySessionError(error, 'NOT_FOUND', 'SESSION_NOT_FOUND'))
      refuse('the service does not know the session', error)
    throw relayError('RELAY_UNAVAILABLE', { details: 'reading the session', cause: error })
  }
}

/** The authorization pays this session: its one-time wallet is `to`. */
export function assertRecipient(session: PaymentSession, request: RelayRequest): void {
  const otw = session.oneTimeWalletAddress
  if (!otw || !isAddress(otw, { strict: false }) || !isAddressEqual(otw, request.authorization.to))
    refuse('to is not the session’s one-time wallet')
}

/** The network and token the session is paid in, when the authorization was signed for them. */
export async function sessionNetwork(
  networkOf: (name: string) => Network | undefined,
  session: PaymentSession,
  request: RelayRequest,
  signed: Network[],
): Promise<{ network: Network; token: TokenInfo }> {
  if (!payable.includes(session.status))
    throw relayError('SESSION_NOT_PAYABLE', { details: session.status })
  const name = session.network?.toUpperCase() ?? ''
  const network = networkOf(name)
  const accepted = session.acceptedTokens?.length ? session.acceptedTokens : [session.tokenSymbol]
  const tokenInfo = network?.tokenOf(request.token)
  if (
    !network ||
    !tokenInfo ||
    !accepted.some((s) => s?.toUpperCase() === request.token.toUpperCase())
  )
    throw relayError('UNSUPPORTED_TOKEN', { details: `${request.token} on ${name}` })
  // Signed for another chain's or token's domain.
  if (!signed.includes(network)) refuse(`not signed for ${name}`)
  try {
    return { network, token: await tokenInfo }
  } catch (error) {
    throw relayError('RELAY_UNAVAILABLE', { details: 'token domain', cause: error })
  }
}

export type LatestBlock = { number: bigint; timestamp: bigint; baseFeePerGas: bigint | null }

/** The latest block: the chain's clock, and where a sent authorization's events start. */
export function latestBlock(network: Network): Promise<LatestBlock> {
  return network.publicClient.getBlock().catch((error) => {
    throw relayError('RELAY_UNAVAILABLE', { details: 'latest block', cause: error })
  })
}

/** Validity against the chain's clock, and the amount the session still owes in the token. */
export function assertTermsAt(
  options: ResolvedRelayOptions,
  block: LatestBlock,
  session: PaymentSession,
  request: RelayRequest,
  token: TokenInfo,
): void {
  const { authorization: auth } = request
  const now = block.timestamp
  if (auth.validAfter >= now) throw relayError('AUTHORIZATION_NOT_YET_VALID')
  if (auth.validBefore < now + options.minValidity) throw relayError('AUTHORIZATION_EXPIRED')
  if (auth.validBefore > now + options.maxValidity) throw relayError('AUTHORIZATION_TOO_LONG')
  const due = owed(session, request.token, token.decimals)
  if (auth.value !== due)
    throw relayError('WRONG_AMOUNT', { details: `${auth.value} units, the session owes ${due}` })
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

export function authorizationState(
  client: PublicClient,
  token: Address,
  from: Address,
  nonce: Hex,
): Promise<boolean> {
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

/** The transaction that used a recorded authorization (its AuthorizationUsed event), if any. */
export async function usedBy(network: Network, record: RelayRecord): Promise<Hex | undefined> {
  const logs = await network.publicClient
    .getContractEvents({
      address: record.token,
      abi: authorizationEvents,
      eventName: 'AuthorizationUsed',
      args: { authorizer: record.from, nonce: record.nonce },
      fromBlock: BigInt(record.fromBlock),
    })
    .catch((error) => {
      throw relayError('RELAY_UNAVAILABLE', { details: 'authorization events', cause: error })
    })
  return logs[0]?.transactionHash ?? undefined
}

/**
 * Whether an earlier authorization for the session still blocks another: while it is
 * pending and valid, or once it moved the money. A canceled or expired one does not.
 */
export async function stillBlocks(
  networkOf: (name: string) => Network | undefined,
  previous: RelayRecord,
  now: bigint,
): Promise<boolean> {
  const network = networkOf(previous.network)
  if (!network) return true
  if (previous.hash) {
    // Its own transaction says it first: pending (no receipt yet) or mined without a revert
    // blocks, whatever the node's log index shows yet.
    const receipt = await network.publicClient
      .getTransactionReceipt({ hash: previous.hash })
      .catch((error) => {
        if (error instanceof TransactionReceiptNotFoundError) return undefined
        throw relayError('RELAY_UNAVAILABLE', { details: 'receipt', cause: error })
      })
    if (!receipt || receipt.status === 'success') return true
  }
  const settled = await authorizationState(
    network.publicClient,
    previous.token,
    previous.from,
    previous.nonce,
  )
  if (!settled) return BigInt(previous.validBefore) > now
  // Used or canceled: only an AuthorizationUsed event says it moved the money.
  return (await usedBy(network, previous)) !== undefined
}

/** The transaction's arguments, as the token's `transferWithAuthorization` takes them. */
export function transferArgs({ authorization: a, signature }: RelayRequest) {
  return [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, signature] as const
}

export type Fees = { gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

/**
 * What spending gas needs: the payer policy (code at `from`), an unused authorization, the
 * relayer above its floor, the base fee under the ceiling, and a simulation (the token checks
 * the signature, a contract payer's too, and the balance) within the gas limit.
 */
export async function checkBeforeGas(
  options: ResolvedRelayOptions,
  network: Network,
  block: LatestBlock,
  request: RelayRequest,
  token: TokenInfo,
): Promise<Fees> {
  const { publicClient } = network
  const { authorization: auth } = request
  const { account, maxGas } = options
  await assertPayerPolicy(options, publicClient, auth.from)
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
  let gas: bigint
  try {
    gas = await publicClient.estimateContractGas({
      account,
      address: token.address,
      abi: eip3009Abi,
      functionName: 'transferWithAuthorization',
      args: transferArgs(request),
    })
  } catch (error) {
    throw classifyError(error)
  }
  if (gas > maxGas)
    throw relayError('GAS_LIMIT_EXCEEDED', { details: `needs ${gas} gas, the limit is ${maxGas}` })
  return {
    // Room over the estimate, never over the limit: a payer's contract that turns costly
    // before the transaction is mined costs the relayer at most this.
    gas: min(maxGas, (gas * 5n) / 4n),
    maxFeePerGas: min(maxFeePerGas, fees.maxFeePerGas),
    maxPriorityFeePerGas: min(fees.maxPriorityFeePerGas, maxFeePerGas),
  }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}
