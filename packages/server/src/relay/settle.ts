import type { PaymentSession } from '../client/types.js'
import {
  assertRecipient,
  assertTermsAt,
  authorizationState,
  issuerRefusal,
  knownToNode,
  latestBlock,
  readSession,
  sessionNetwork,
  usedBy,
} from './chainChecks.js'
import { checkOffline } from './checkOffline.js'
import {
  claimPayer,
  isLeased,
  judgeClaim,
  readClaim,
  releasePayer,
  replaceClaim,
  sameAuthorization,
} from './claims.js'
import { classifyError } from './classifyError.js'
import { assertPayerPolicy } from './contractPayers.js'
import { relayError } from './errors.js'
import type { Network } from './networks.js'
import type { ResolvedRelayOptions } from './options.js'
import type { Payment } from './parseRequest.js'
import { type Sender, wasNotSent } from './senders/sender.js'
import type { RelayRecord } from './types.js'

export type SettleContext = {
  options: ResolvedRelayOptions
  networkOf: (name: string) => Network | undefined
  /** Runs `work` after every earlier one for `key` in this process settled. */
  exclusively: <T>(key: string, work: () => Promise<T>) => Promise<T>
}

export type SettleReturnType = {
  /** The session as the service names it. */
  sessionId: string
  /** Sent (by a relayer, not yet mined) or settled (by a facilitator). The same authorization again answers the same hash. */
  transactionHash: `0x${string}`
}

/** One queue per key in this process: a retried request for a session waits for the first. */
export function createKeyedQueue() {
  const tails = new Map<string, Promise<unknown>>()
  return async function exclusively<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (tails.get(key) ?? Promise.resolve()).catch(() => undefined).then(work)
    tails.set(key, run)
    try {
      return await run
    } finally {
      if (tails.get(key) === run) tails.delete(key)
    }
  }
}

/**
 * The settlement pipeline: every rule once, in one order, whichever way the payment came (the
 * checkout's gasless request, an x402 payment) and whoever sends it (`sender`): the offline
 * checks, the session (its one-time wallet, status, network, token and what it still owes), the
 * chain's clock, the payer policy, an earlier claim judged by `judgeClaim`, the authorization's
 * state, one atomic claim on the session and on the payer's slot, the sender's own checks, then
 * the send. Throws a `PaySessionError` with the relay's code and `status`.
 */
export async function settle<P extends Payment>(
  context: SettleContext,
  payment: P,
  sender: Sender<unknown, P>,
): Promise<SettleReturnType> {
  const { options, networkOf } = context
  const signed = await checkOffline(options, networkOf, payment)
  const session = await readSession(options, payment)
  assertRecipient(session, payment)
  // The session as the service names it: a caller's variant of the id is the same session.
  const sessionId = session.paymentSessionId
  return context.exclusively(sessionId, () =>
    claimAndSend(context, payment, session, signed, sender),
  )
}

async function claimAndSend<P extends Payment>(
  context: SettleContext,
  payment: P,
  session: PaymentSession,
  signed: Network[],
  sender: Sender<unknown, P>,
): Promise<SettleReturnType> {
  const { options, networkOf } = context
  const { store, clock } = options
  const { authorization: auth } = payment
  const sessionId = session.paymentSessionId
  const previous = (await readClaim(store, sessionId))?.record
  const same = !!previous && sameAuthorization(previous, auth)
  // The same authorization again (a retried request): its hash, even once the session is paid.
  if (previous && same) {
    const hash = await afterPrevious(context, previous, true)
    if (hash) return { sessionId, transactionHash: hash }
  }
  const { network, token } = await sessionNetwork(networkOf, session, payment, signed)
  const block = await latestBlock(network)
  assertTermsAt(options, block, session, payment, token)
  await assertPayerPolicy(options, network.publicClient, auth.from)
  if (previous && !same) await afterPrevious(context, previous, false)
  if (await authorizationState(network, token.address, auth.from, auth.nonce, block))
    throw relayError('AUTHORIZATION_USED')
  const claimed: RelayRecord = {
    from: auth.from,
    nonce: auth.nonce,
    validBefore: auth.validBefore.toString(),
    network: network.name,
    token: token.address,
    fromBlock: block.number.toString(),
    claimedAt: clock.now(),
  }
  if (!(await replaceClaim(store, sessionId, claimed, previous)))
    throw relayError('ALREADY_RELAYED', { details: 'another request claimed the session first' })
  // The sender's checks (the relayer's simulation against the payer's balance) run while the
  // payer's slot is held: no other payment of theirs can move that balance meanwhile.
  const sendContext = { payment, session, network, token, block, store, clock }
  let slot: string | undefined
  let prepared: unknown
  try {
    slot = await claimPayer(store, network, claimed, sessionId, clock)
    prepared = await sender.prepare(sendContext)
  } catch (error) {
    await replaceClaim(store, sessionId, undefined, claimed)
    if (slot) await releasePayer(store, network, claimed, slot)
    // The sender's checks include the token's own: say so when its issuer is the reason.
    throw slot ? ((await issuerRefusal(network, token.address, auth, block)) ?? error) : error
  }
  // Right before anything leaves: what the claim must know goes on it, compared with it, so a
  // claim taken over meanwhile sends nothing.
  let current = claimed
  let transactionHash: `0x${string}`
  try {
    transactionHash = await sender.send(sendContext, prepared, async (fields) => {
      const marked = { ...current, ...fields }
      if (!(await replaceClaim(store, sessionId, marked, current)))
        throw relayError('ALREADY_RELAYED', { details: 'the claim was taken over' })
      current = marked
    })
  } catch (error) {
    // Nothing left: the session and the payer stay free. Otherwise the claim stays, and the
    // chain tells a later request whether it can still be mined.
    if (current === claimed || wasNotSent(error)) {
      await replaceClaim(store, sessionId, undefined, current)
      await releasePayer(store, network, claimed, slot)
    }
    throw classifyError(error)
  }
  if (current.hash !== transactionHash)
    await replaceClaim(store, sessionId, { ...current, hash: transactionHash }, current)
  options.onRelayed?.({
    sessionId,
    paymentSessionId: sessionId,
    transactionHash,
    authorization: auth,
  })
  return { sessionId, transactionHash }
}

/**
 * Whether the session's earlier claim lets this authorization be sent, judged by `judgeClaim`:
 * throws when the earlier one paid or may still be mined, answers the earlier transaction's hash
 * when this is that `same` authorization, and resolves to nothing when this one may be sent.
 */
async function afterPrevious(
  { networkOf, options }: SettleContext,
  previous: RelayRecord,
  same: boolean,
): Promise<`0x${string}` | undefined> {
  const network = networkOf(previous.network)
  // A network no longer configured: nothing here can tell whether it paid.
  if (!network) throw relayError('ALREADY_RELAYED', { details: `sent on ${previous.network}` })
  switch (await judgeClaim(network, previous, options.clock)) {
    case 'used': {
      const hash = same ? await usedBy(network, previous) : undefined
      if (hash) return hash
      throw relayError('ALREADY_RELAYED', { details: 'an authorization for it was used' })
    }
    case 'pending':
      if (same && previous.hash && !previous.facilitator) {
        // The same bytes again when the node lost them: the same nonce, the same hash.
        if (previous.raw && !(await knownToNode(network, previous.hash)))
          await network.publicClient
            .sendRawTransaction({ serializedTransaction: previous.raw })
            .catch(() => {})
        if (previous.raw || (await knownToNode(network, previous.hash))) return previous.hash
      }
      throw relayError('ALREADY_RELAYED', { details: 'its transaction may still be mined' })
    case 'unsent':
      if (isLeased(previous, options.clock))
        throw relayError('ALREADY_RELAYED', { details: 'being sent by another request' })
      return undefined
    // Canceled, expired, or its relayer nonce spent without it: it can never pay. The same
    // authorization is checked again from the start (canceled or expired is refused there).
    case 'canceled':
    case 'dead':
      return undefined
  }
}
