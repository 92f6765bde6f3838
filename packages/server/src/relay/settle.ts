import { BaseError, type Hex, isAddressEqual } from 'viem'
import type { PaymentSession } from '../client/types.js'
import {
  assertRecipient,
  assertTermsAt,
  checkBeforeGas,
  knownToNode,
  latestBlock,
  priorState,
  readSession,
  sessionNetwork,
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
 * How long a claim that has not reached its send (no relayer nonce recorded on it) belongs to
 * the instance that made it. After that another request may take the claim over; the first
 * claimer, if it is still alive, finds its claim replaced when it goes to record its nonce, and
 * sends nothing.
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
  if (previous && same) {
    const hash = await afterPrevious(context, previous, same)
    if (hash) return { sessionId, transactionHash: hash }
  }
  const { network, token } = await sessionNetwork(networkOf, session, request, signed)
  const block = await latestBlock(network)
  assertTermsAt(options, block, session, request, token)
  if (previous && !same) await afterPrevious(context, previous, same)
  const fees = await checkBeforeGas(options, network, block, request, token)

  const claimed: RelayRecord = {
    from: auth.from,
    nonce: auth.nonce,
    validBefore: auth.validBefore.toString(),
    network: network.name,
    token: token.address,
    fromBlock: block.number.toString(),
    claimedAt: options.clock.now(),
  }
  if (!(await store.claim(sessionId, claimed, previous)))
    throw relayError('ALREADY_RELAYED', { details: 'another request claimed the session first' })
  // Under the nonce lock, right before the transaction leaves: the relayer nonce (and hash) go
  // on the claim, compared with it, so a claim taken over meanwhile sends nothing.
  const sent: { record?: RelayRecord } = {}
  let transactionHash: Hex
  try {
    transactionHash = await send(network, token.address, request, fees, async (sending) => {
      const record = { ...claimed, ...sending }
      if (!(await store.claim(sessionId, record, claimed)))
        throw relayError('ALREADY_RELAYED', { details: 'the claim was taken over' })
      sent.record = record
    })
  } catch (error) {
    // Nothing left the instance, or the node answered and refused it: the session stays
    // payable. No answer (timeout, connection lost), or a failure after the node took it: the
    // record stays, and the chain tells a later request whether it can still be mined.
    if (!sent.record) await store.release(sessionId, claimed)
    else if (error instanceof BaseError && !mayHaveBeenSent(error))
      await store.release(sessionId, sent.record)
    throw classifyError(error)
  }
  if (sent.record && sent.record.hash !== transactionHash)
    await store.set(sessionId, { ...sent.record, hash: transactionHash })
  options.onRelayed?.({
    sessionId,
    paymentSessionId: sessionId,
    transactionHash,
    authorization: auth,
  })
  return { sessionId, transactionHash }
}

/**
 * Whether the session's earlier authorization lets this one be sent, decided from the chain's
 * state: throws when the earlier one paid or may still be mined, answers the earlier
 * transaction's hash when this is that `same` authorization, and resolves to nothing when this
 * one may be sent (over the earlier claim).
 */
async function afterPrevious(
  { networkOf, options }: SettleContext,
  previous: RelayRecord,
  same: boolean,
): Promise<Hex | undefined> {
  const leased = options.clock.now() - (previous.claimedAt ?? 0) < claimLeaseMs
  const network = networkOf(previous.network)
  // A network no longer configured: nothing here can tell whether it paid.
  if (!network) throw relayError('ALREADY_RELAYED', { details: `sent on ${previous.network}` })
  switch (await priorState(network, previous, await latestBlock(network))) {
    case 'used': {
      const hash = same ? await usedBy(network, previous) : undefined
      if (hash) return hash
      throw relayError('ALREADY_RELAYED', { details: 'an authorization for it was used' })
    }
    case 'pending':
      // Another authorization waits. The same one gets its hash while the node knows the
      // transaction; one the node never got (its sender died first) is sent again once the
      // lease is over: the token's nonce lets at most one of the two pay.
      if (same && previous.hash && (await knownToNode(network, previous.hash))) return previous.hash
      if (!same || leased)
        throw relayError('ALREADY_RELAYED', { details: 'its transaction may still be mined' })
      return undefined
    case 'unsent':
      if (leased) throw relayError('ALREADY_RELAYED', { details: 'being sent by another request' })
      return undefined
    // Canceled, expired, or its relayer nonce spent without it: it can never pay. The same
    // authorization is checked again from the start (canceled or expired is refused there).
    case 'canceled':
    case 'dead':
      return undefined
  }
}
