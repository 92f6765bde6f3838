import {
  decimalToUnits,
  eip3009Abi,
  isPaySessionError,
  isTokenRefused,
  type PaySessionError,
  tokenControlsAbi,
} from '@paysession/protocol'
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  hexToNumber,
  isAddress,
  isAddressEqual,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem'
import type { PaymentSession } from '../client/types.js'
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

export type LatestBlock = {
  hash: Hex
  number: bigint
  timestamp: bigint
  baseFeePerGas: bigint | null
}

/** The latest block: the chain's clock, and where a sent authorization's events start. */
export async function latestBlock(network: Network): Promise<LatestBlock> {
  const block = await network.publicClient.getBlock().catch((error) => {
    throw relayError('RELAY_UNAVAILABLE', { details: 'latest block', cause: error })
  })
  if (!block.hash) throw relayError('RELAY_UNAVAILABLE', { details: 'latest block has no hash' })
  return { ...block, hash: block.hash }
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

/**
 * Whether the token marked the authorization used or canceled, in the state of `block`, named by
 * its hash (EIP-1898): a load-balanced provider answers from that block or fails, never from
 * another block of the same number.
 */
export async function authorizationState(
  network: Network,
  token: Address,
  from: Address,
  nonce: Hex,
  block: LatestBlock,
): Promise<boolean> {
  const data = encodeFunctionData({
    abi: eip3009Abi,
    functionName: 'authorizationState',
    args: [from, nonce],
  })
  const answer = await network.publicClient
    .request({ method: 'eth_call', params: [{ to: token, data }, { blockHash: block.hash }] })
    .catch((error) => {
      throw relayError('RELAY_UNAVAILABLE', { details: 'authorizationState', cause: error })
    })
  return decodeFunctionResult({
    abi: eip3009Abi,
    functionName: 'authorizationState',
    data: answer,
  })
}

/**
 * Whether the token's issuer is why it refuses this transfer (Circle's FiatToken: paused, the
 * one-time wallet or the payer blacklisted, in that order), in the state of `block`. Asked once a
 * sender's checks failed, so a payment that passes costs no read; a token without these controls
 * reverts on the read, which counts as neither.
 */
export async function issuerRefusal(
  network: Network,
  token: Address,
  { from, to }: { from: Address; to: Address },
  block: LatestBlock,
): Promise<PaySessionError | undefined> {
  const read = async (
    call:
      | { functionName: 'paused'; args?: undefined }
      | { functionName: 'isBlacklisted'; args: [Address] },
  ) => {
    try {
      const data = encodeFunctionData({ abi: tokenControlsAbi, ...call } as never)
      const answer = await network.publicClient.request({
        method: 'eth_call',
        params: [{ to: token, data }, { blockHash: block.hash }],
      })
      return decodeFunctionResult({
        abi: tokenControlsAbi,
        functionName: call.functionName,
        data: answer,
      })
    } catch {
      return false
    }
  }
  const [paused, recipient, payer] = await Promise.all([
    read({ functionName: 'paused' }),
    read({ functionName: 'isBlacklisted', args: [to] }),
    read({ functionName: 'isBlacklisted', args: [from] }),
  ])
  if (paused) return relayError('TOKEN_PAUSED', { details: `the token ${token} is paused` })
  if (recipient)
    return relayError('RECIPIENT_BLOCKED', {
      details: `the token blacklists the one-time wallet ${to}`,
    })
  if (payer)
    return relayError('PAYER_BLOCKED', { details: `the token blacklists the payer ${from}` })
  return undefined
}

/** The relayer's count of mined transactions in the state of `block`, named by its hash. */
export async function minedCountAt(
  network: Network,
  address: Address,
  block: LatestBlock,
): Promise<number> {
  const answer = await network.publicClient
    .request({ method: 'eth_getTransactionCount', params: [address, { blockHash: block.hash }] })
    .catch((error) => {
      throw relayError('RELAY_UNAVAILABLE', { details: 'relayer nonce', cause: error })
    })
  return hexToNumber(answer)
}

/** The first of a recorded authorization's `event` since its claim, if the node indexed it. */
export async function eventOf(
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
