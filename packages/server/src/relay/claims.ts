import { type Clock, sleep } from '@paysession/protocol'
import { type Address, isAddressEqual } from 'viem'
import {
  authorizationState,
  eventOf,
  type LatestBlock,
  latestBlock,
  minedCountAt,
} from './chainChecks.js'
import { relayError } from './errors.js'
import type { Network } from './networks.js'
import { type RelayRecord, type RelayStore, serializeRecord } from './types.js'

/**
 * How long a claim that has not reached its send (no relayer nonce and no facilitator recorded
 * on it) belongs to the instance that made it. After that another request may take the claim
 * over; the first claimer, if it is still alive, finds its claim replaced when it goes to mark
 * its send, and sends nothing.
 */
export const claimLeaseMs = 20_000

/** How long `judgeClaim` waits for a block after the one it read, to confirm a `dead` verdict. */
const newerBlockWaitMs = 2_000

/**
 * What became of the authorization a claim holds, the same for every route:
 * - `used`: the token marked it used (and no cancel is seen): it paid;
 * - `canceled`: its payer canceled it;
 * - `dead`: unused, and never minable: expired, or sent by a relayer whose nonce a finished block
 *   shows spent while the authorization was still unused there;
 * - `pending`: it may still be mined: sent by a relayer whose nonce is not spent, or handed to a
 *   facilitator (its outcome is unknown until it is used or expires);
 * - `unsent`: unused, and its claimer never got to the send.
 */
export type ClaimState = 'used' | 'canceled' | 'dead' | 'pending' | 'unsent'

/**
 * Judges a claim from the chain, reading each block's state by its hash. "Dead" rests on
 * evidence that cannot tear: the relayer nonce spent at a block, then the authorization still
 * unused at a later, finished block. (A node may answer a read at its head from the state of the
 * block it is mining, so a nonce count can already include the block that uses the
 * authorization; the later block then shows it used.) Until a later block comes it is `pending`.
 */
export async function judgeClaim(
  network: Network,
  record: RelayRecord,
  clock: Clock,
): Promise<ClaimState> {
  const block = await latestBlock(network)
  const usedAt = async (at: LatestBlock): Promise<ClaimState | undefined> => {
    if (!(await authorizationState(network, record.token, record.from, record.nonce, at)))
      return undefined
    return (await eventOf(network, record, 'AuthorizationCanceled')) ? 'canceled' : 'used'
  }
  const used = await usedAt(block)
  if (used) return used
  if (BigInt(record.validBefore) <= block.timestamp) return 'dead'
  if (record.facilitator) return 'pending'
  if (!record.relayer || record.relayerNonce === undefined)
    return record.hash ? 'pending' : 'unsent'
  if ((await minedCountAt(network, record.relayer, block)) <= record.relayerNonce) return 'pending'
  const later = await newerBlock(network, block, clock)
  if (!later) return 'pending'
  return (await usedAt(later)) ?? 'dead'
}

async function newerBlock(
  network: Network,
  than: LatestBlock,
  clock: Clock,
): Promise<LatestBlock | undefined> {
  const deadline = clock.now() + newerBlockWaitMs
  for (;;) {
    const block = await latestBlock(network)
    if (block.number > than.number) return block
    if (clock.now() >= deadline) return undefined
    await sleep(clock, 200)
  }
}

/** The store's keys: a session's claim, a payer's payment in flight on a chain. */
export const claimKey = (sessionId: string) => `claim:${sessionId}`
export const payerKey = (chainId: number, payer: Address) =>
  `payer:${chainId}:${payer.toLowerCase()}`

/** The session's claim as stored (its text, for the next compare-and-set), if any. */
export async function readClaim(
  store: RelayStore,
  sessionId: string,
): Promise<{ text: string; record: RelayRecord } | undefined> {
  const text = await store.get(claimKey(sessionId))
  return text ? { text, record: JSON.parse(text) as RelayRecord } : undefined
}

/** Whether a claim that never reached its send still belongs to its claimer. */
export function isLeased(record: RelayRecord, clock: Pick<Clock, 'now'>): boolean {
  return clock.now() - (record.claimedAt ?? 0) < claimLeaseMs
}

/** Whether two records hold the same authorization. */
export function sameAuthorization(a: RelayRecord, b: Pick<RelayRecord, 'from' | 'nonce'>) {
  return a.nonce === b.nonce && isAddressEqual(a.from, b.from)
}

/**
 * Takes the payer's one slot on the chain for this session's authorization: a payer has at most
 * one payment in flight per chain, so a balance moved (or a delegation set) after the checks
 * costs a relayer at most one reverted transfer per payer. The slot is free when it is empty, or
 * when the claim it names is settled either way (used, canceled, dead) or gone; otherwise
 * `PAYER_BUSY`. Returns the slot's text, for `releasePayer`.
 */
export async function claimPayer(
  store: RelayStore,
  network: Network,
  record: RelayRecord,
  sessionId: string,
  clock: Clock,
): Promise<string> {
  const key = payerKey(network.chain.id, record.from)
  const mine = JSON.stringify({ sessionId, nonce: record.nonce })
  for (let attempt = 0; attempt < 3; attempt++) {
    const text = (await store.get(key)) ?? undefined
    if (text && text !== mine) {
      const slot = JSON.parse(text) as { sessionId: string; nonce: string }
      const other = await readClaim(store, slot.sessionId)
      if (other && other.record.nonce === slot.nonce) {
        const state = await judgeClaim(network, other.record, clock)
        if (state === 'pending' || (state === 'unsent' && isLeased(other.record, clock)))
          throw relayError('PAYER_BUSY', {
            details: `${record.from} has a payment in flight for ${slot.sessionId}`,
          })
      }
    }
    if (text === mine || (await store.compareAndSet(key, mine, text))) return mine
  }
  throw relayError('PAYER_BUSY', { details: `${record.from}: the slot keeps changing` })
}

/** Frees the payer's slot taken by `claimPayer`, when nothing was sent. */
export async function releasePayer(
  store: RelayStore,
  network: Network,
  record: RelayRecord,
  slot: string,
): Promise<void> {
  await store.compareAndSet(payerKey(network.chain.id, record.from), undefined, slot)
}

/** Replaces the session's claim `expected` with `record` (or drops it); true when it did. */
export async function replaceClaim(
  store: RelayStore,
  sessionId: string,
  record: RelayRecord | undefined,
  expected: RelayRecord | undefined,
): Promise<boolean> {
  const text = (r: RelayRecord | undefined) => (r ? serializeRecord(r) : undefined)
  return store.compareAndSet(claimKey(sessionId), text(record), text(expected))
}
