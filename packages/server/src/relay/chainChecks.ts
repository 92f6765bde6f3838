import { decimalToUnits, eip3009Abi, isPaySessionError, isTokenRefused } from '@paysession/protocol'
import {
  type Address,
  type Hex,
  isAddress,
  isAddressEqual,
  type PublicClient,
  parseGwei,
  TransactionNotFoundError,
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

// EIP-3009's events: which transaction used an authorization, and whether it was canceled.
const authorizationInputs = [
  { name: 'authorizer', type: 'address', indexed: true },
  { name: 'nonce', type: 'bytes32', indexed: true },
] as const
const authorizationEvents = [
  { type: 'event', name: 'AuthorizationUsed', inputs: authorizationInputs },
  { type: 'event', name: 'AuthorizationCanceled', inputs: authorizationInputs },
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
        if (!isTokenRefused(error)) throw error
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
  blockNumber?: bigint,
): Promise<boolean> {
  return client
    .readContract({
      address: token,
      abi: eip3009Abi,
      functionName: 'authorizationState',
      args: [from, nonce],
      blockNumber,
    })
    .catch((error) => {
      throw relayError('RELAY_UNAVAILABLE', { details: 'authorizationState', cause: error })
    })
}

/** The first of a recorded authorization's `event` since its claim, if the node indexed it. */
async function eventOf(
  network: Network,
  record: RelayRecord,
  eventName: 'AuthorizationUsed' | 'AuthorizationCanceled',
): Promise<Hex | undefined> {
  const logs = await network.publicClient
    .getContractEvents({
      address: record.token,
      abi: authorizationEvents,
      eventName,
      args: { authorizer: record.from, nonce: record.nonce },
      fromBlock: BigInt(record.fromBlock),
    })
    .catch((error) => {
      throw relayError('RELAY_UNAVAILABLE', { details: 'authorization events', cause: error })
    })
  return logs[0]?.transactionHash ?? undefined
}

/**
 * What became of the authorization a session's record holds, read from the chain's state at
 * one block (events may be indexed later than the state they come from, so they only name a
 * transaction or prove a cancel, never decide that money did not move):
 * - `used`: the token marked it used, and no cancel is seen: it paid (or its cancel is not
 *   indexed yet);
 * - `canceled`: its payer canceled it;
 * - `dead`: unused, and never minable: expired at that block, or the relayer nonce it was sent
 *   with is spent (mined by another transaction, or by its own without using it);
 * - `pending`: unused, sent (or being sent) with a relayer nonce not spent yet: it may be mined;
 * - `unsent`: unused, and its claimer never got to the send (no relayer nonce recorded).
 */
export type PriorState = 'used' | 'canceled' | 'dead' | 'pending' | 'unsent'

export async function priorState(
  network: Network,
  record: RelayRecord,
  block: LatestBlock,
): Promise<PriorState> {
  const { relayer, relayerNonce } = record
  const { publicClient } = network
  const blockNumber = block.number
  const [used, mined] = await Promise.all([
    authorizationState(publicClient, record.token, record.from, record.nonce, blockNumber),
    relayer && relayerNonce !== undefined
      ? publicClient.getTransactionCount({ address: relayer, blockNumber }).catch((error) => {
          throw relayError('RELAY_UNAVAILABLE', { details: 'relayer nonce', cause: error })
        })
      : undefined,
  ])
  if (used) return (await eventOf(network, record, 'AuthorizationCanceled')) ? 'canceled' : 'used'
  if (BigInt(record.validBefore) <= block.timestamp) return 'dead'
  // A hash without a relayer nonce: a record from a store written before nonces were recorded.
  if (relayerNonce === undefined || mined === undefined) return record.hash ? 'pending' : 'unsent'
  return mined > relayerNonce ? 'dead' : 'pending'
}

/** Whether the node has the transaction (pending or mined). */
export function knownToNode(network: Network, hash: Hex): Promise<boolean> {
  return network.publicClient.getTransaction({ hash }).then(
    () => true,
    (error) => {
      if (error instanceof TransactionNotFoundError) return false
      throw relayError('RELAY_UNAVAILABLE', { details: 'transaction', cause: error })
    },
  )
}

/** The transaction that used a recorded authorization: its own, else the one its event names. */
export async function usedBy(network: Network, record: RelayRecord): Promise<Hex | undefined> {
  if (record.hash) {
    const receipt = await network.publicClient
      .getTransactionReceipt({ hash: record.hash })
      .catch((error) => {
        if (error instanceof TransactionReceiptNotFoundError) return undefined
        throw relayError('RELAY_UNAVAILABLE', { details: 'receipt', cause: error })
      })
    if (receipt?.status === 'success') return record.hash
  }
  return eventOf(network, record, 'AuthorizationUsed')
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
