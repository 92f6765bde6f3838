import { isAddressEqual } from 'viem'
import type { PaymentSession } from '../client/types.js'
import {
  assertRecipient,
  assertTermsAt,
  checkBeforeGas,
  latestBlock,
  readSession,
  sessionNetwork,
  stillBlocks,
  usedBy,
} from './chainChecks.js'
import { checkOffline } from './checkOffline.js'
import { classifyError, mayHaveBeenSent } from './classifyError.js'
import { relayError } from './errors.js'
import type { Network } from './networks.js'
import type { ResolvedRelayOptions } from './options.js'
import type { RelayRequest } from './parseRequest.js'
import type { createSender } from './send.js'
import type { RelayRecord } from './types.js'

/**
 * How long a claim without a hash belongs to the instance that made it. After that the same
 * authorization may be sent again by another instance (its claimer may have died before
 * sending; the token's own nonce keeps it to one transfer); another authorization still waits
 * for this one's validity to end, as it may be in a node's pool.
 */
export const claimLeaseMs = 20_000

export type SettleContext = {
  options: ResolvedRelayOptions
  networkOf: (name: string) => Network | undefined
  send: ReturnType<typeof createSender>
  /** Runs `work` after every earlier one for `key` in this process settled. */
  exclusively: <T>(key: string, work: () => Promise<T>) => Promise<T>
}

export type SettleReturnType = {
  /** The session as the service names it. */
  sessionId: string
  /** Sent, not yet mined. The same authorization again answers the same hash. */
  transactionHash: `0x${string}`
}

/**
 * Applies every rule to one signed authorization for one session, and sends it: the offline
 * checks, the session (its one-time wallet, status, network, token and what it still owes), the
 * chain (validity, payer policy, unused authorization, relayer floor, fee ceiling, simulation
 * under the gas limit), then the store's claim, so that of any number of instances exactly one
 * sends for the session. Throws a `PaySessionError` with the relay's code and `status`.
 */
export async function settle(
  context: SettleContext,
  request: RelayRequest,
): Promise<SettleReturnType> {
  const { options, networkOf } = context
  const signed = await checkOffline(options, networkOf, request)
  const session = await readSession(options, request)
  assertRecipient(session, request)
  // From here on the caller knows the session's one-time wallet: answers may be precise.
  // The session as the service names it: a caller's variant of the id is the same session.
  const sessionId = session.paymentSessionId
  // In this process one request per session at a time, so a retried request gets the hash;
  // across instances the store's claim decides.
  return context.exclusively(sessionId, () => claimAndSend(context, request, session, signed))
}

async function claimAndSend(
  context: SettleContext,
  request: RelayRequest,
  session: PaymentSession,
  signed: Network[],
): Promise<SettleReturnType> {
  const { options, networkOf, send } = context
  const { store } = options
  const { authorization: auth } = request
  const sessionId = session.paymentSessionId
  const previous = (await store.get(sessionId)) ?? undefined
  const same =
    !!previous && previous.nonce === auth.nonce && isAddressEqual(previous.from, auth.from)
  // The same authorization again (a retried request): its hash, even once the session is paid.
  if (same && previous.hash) return { sessionId, transactionHash: previous.hash }
  if (same) {
    const network = networkOf(previous.network)
    const hash = network && (await usedBy(network, previous))
    if (hash) {
      await store.set(sessionId, { ...previous, hash })
      return { sessionId, transactionHash: hash }
    }
    if (Date.now() - (previous.claimedAt ?? 0) < claimLeaseMs)
      throw relayError('ALREADY_RELAYED', { details: 'being sent by another request' })
  }
  const { network, token } = await sessionNetwork(networkOf, session, request, signed)
  const block = await latestBlock(network)
  assertTermsAt(options, block, session, request, token)
  if (previous && !same && (await stillBlocks(networkOf, previous, block.timestamp)))
    throw relayError('ALREADY_RELAYED')
  const fees = await checkBeforeGas(options, network, block, request, token)

  const record: RelayRecord = {
    from: auth.from,
    nonce: auth.nonce,
    validBefore: auth.validBefore.toString(),
    network: network.name,
    token: token.address,
    fromBlock: block.number.toString(),
    claimedAt: Date.now(),
  }
  if (!(await store.claim(sessionId, record, previous)))
    throw relayError('ALREADY_RELAYED', { details: 'another request claimed the session first' })
  let transactionHash: `0x${string}`
  try {
    transactionHash = await send(network, token.address, request, fees)
  } catch (error) {
    // The node answered and refused it: nothing was sent and the session stays payable.
    // No answer (timeout, connection lost): it may have been sent, so the record stays and
    // blocks another authorization until this one is used, canceled or expired.
    if (!mayHaveBeenSent(error)) await store.release(sessionId, record)
    throw classifyError(error)
  }
  await store.set(sessionId, { ...record, hash: transactionHash })
  options.onRelayed?.({
    sessionId,
    paymentSessionId: sessionId,
    transactionHash,
    authorization: auth,
  })
  return { sessionId, transactionHash }
}
