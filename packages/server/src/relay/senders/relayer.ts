import { eip3009Abi, sleep } from '@paysession/protocol'
import {
  type Address,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  keccak256,
  type LocalAccount,
  parseGwei,
} from 'viem'
import { type LatestBlock, latestBlock, transferArgs } from '../chainChecks.js'
import { readClaim } from '../claims.js'
import { classifyError, mayHaveBeenSent } from '../classifyError.js'
import { relayError } from '../errors.js'
import type { Network } from '../networks.js'
import type { ResolvedRelayOptions } from '../options.js'
import type { RelayRecord } from '../types.js'
import { notSent, type SendContext, type Sender } from './sender.js'

/**
 * How long a nonce handed out on a lane may be missing from the node before it counts as a gap:
 * longer than an instance takes from the nonce to the send, and than an RPC provider's nodes take
 * to see a new transaction. Then any instance fills it: with the claim's signed bytes, or with a
 * transfer of nothing to itself where there are none (or the authorization is about to expire).
 */
export const gapGraceMs = 10_000

/**
 * A relayer key on a chain: the nonces handed out and not yet seen mined, each with the session
 * it pays (none for a filler) and when it was handed out or last filled. Kept in the store, so
 * every instance shares it; changed only by compare-and-set, so no lock is held.
 */
type Lane = { next: number; inflight: InFlight[] }
type InFlight = { nonce: number; sessionId?: string; validBefore?: string; at: number; void?: true }

type Prepared = { account: LocalAccount; fees: Fees }
type Fees = { gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

/**
 * The merchant's relayer as a sender: one lane per key, each with its own nonces. A payment takes
 * the key this instance is busy with least, so throughput grows with the keys. The transaction
 * is signed here and its bytes go on the claim before they leave, so any instance can send the
 * same bytes again; a nonce the node lost is filled, never left blocking the sends behind it.
 */
export function relayerSender(options: ResolvedRelayOptions): Sender<Prepared> {
  const { accounts, maxGas, store, clock } = options
  const busy = new Map<Address, number>()
  const watched = new Set<string>()
  // Where the search for the least busy key starts: it moves on each payment and starts at a
  // random key, so instances that know nothing of each other's load spread over the keys.
  let turn = Math.floor(Math.random() * accounts.length)

  /** The key this instance is busy with least, held busy until `release`. */
  function pick(): LocalAccount {
    turn = (turn + 1) % accounts.length
    let best = accounts[turn]!
    for (let i = 1; i < accounts.length; i++) {
      const account = accounts[(turn + i) % accounts.length]!
      if ((busy.get(account.address) ?? 0) < (busy.get(best.address) ?? 0)) best = account
    }
    busy.set(best.address, (busy.get(best.address) ?? 0) + 1)
    return best
  }
  const release = (account: LocalAccount) =>
    busy.set(account.address, (busy.get(account.address) ?? 1) - 1)

  const laneKey = (network: Network, account: LocalAccount) =>
    `lane:${network.chain.id}:${account.address.toLowerCase()}`

  const readLane = async (key: string) => {
    const text = (await store.get(key)) ?? undefined
    return { text, lane: text ? (JSON.parse(text) as Lane) : { next: 0, inflight: [] } }
  }

  async function counts(network: Network, address: Address) {
    const count = (blockTag: 'pending' | 'latest') =>
      network.publicClient.getTransactionCount({ address, blockTag })
    return Promise.all([count('pending'), count('latest')]).catch((error) => {
      throw relayError('RELAY_UNAVAILABLE', { details: 'relayer nonce', cause: error })
    })
  }

  /**
   * Hands out the lane's next nonce (never below the node's pending count), and the gaps to fill:
   * nonces handed out, not known to the node, and older than the grace (or given up).
   */
  async function allocate(
    network: Network,
    account: LocalAccount,
    entry: Omit<InFlight, 'nonce' | 'at'>,
  ): Promise<{ nonce: number; gaps: InFlight[] }> {
    const key = laneKey(network, account)
    const [pending, mined] = await counts(network, account.address)
    for (let attempt = 0; attempt < 50; attempt++) {
      const { text, lane } = await readLane(key)
      const now = clock.now()
      const inflight = lane.inflight.filter((e) => e.nonce >= mined)
      const gaps = inflight.filter(
        (e) => e.nonce >= pending && (e.void || now - e.at >= gapGraceMs),
      )
      for (const gap of gaps) gap.at = now
      const nonce = Math.max(lane.next, pending)
      inflight.push({ ...entry, nonce, at: now })
      const next: Lane = { next: nonce + 1, inflight }
      if (await store.compareAndSet(key, JSON.stringify(next), text)) return { nonce, gaps }
      await sleep(clock, Math.random() * 4)
    }
    throw relayError('RELAY_UNAVAILABLE', { details: 'the relayer lane is contended' })
  }

  /** Gives back a nonce that never left: the lane's last, or else one to fill at once. */
  async function retract(network: Network, account: LocalAccount, nonce: number) {
    const key = laneKey(network, account)
    for (let attempt = 0; attempt < 50; attempt++) {
      const { text, lane } = await readLane(key)
      const next: Lane =
        lane.next === nonce + 1
          ? { next: nonce, inflight: lane.inflight.filter((e) => e.nonce !== nonce) }
          : {
              next: lane.next,
              inflight: lane.inflight.map((e) => (e.nonce === nonce ? { ...e, void: true } : e)),
            }
      if (await store.compareAndSet(key, JSON.stringify(next), text)) {
        if (lane.next !== nonce + 1) watch(network, account, 0)
        return
      }
    }
  }

  /** Fills each gap: the claim's own bytes while its authorization can still be mined, else nothing. */
  async function fill(network: Network, account: LocalAccount, gaps: InFlight[]) {
    if (gaps.length === 0) return
    const block = await latestBlock(network)
    const margin = options.minValidity
    for (const gap of gaps) {
      const claim = gap.sessionId && !gap.void ? await readClaim(store, gap.sessionId) : undefined
      const record = claim?.record
      const raw =
        record?.raw &&
        record.relayerNonce === gap.nonce &&
        record.relayer &&
        isAddressEqual(record.relayer, account.address) &&
        BigInt(record.validBefore) > block.timestamp + margin
          ? record.raw
          : await account.signTransaction({
              type: 'eip1559',
              chainId: network.chain.id,
              to: account.address,
              value: 0n,
              gas: 21_000n,
              nonce: gap.nonce,
              ...(await fillerFees(network)),
            })
      // Already known or mined: the gap is filled either way.
      await network.publicClient.sendRawTransaction({ serializedTransaction: raw }).catch(() => {})
    }
  }

  async function fillerFees(network: Network) {
    const ceiling = network.config.maxFeePerGas ?? parseGwei('100')
    const fees = await network.publicClient.estimateFeesPerGas()
    return {
      maxFeePerGas: min(ceiling, fees.maxFeePerGas * 2n),
      maxPriorityFeePerGas: min(ceiling, fees.maxPriorityFeePerGas * 2n),
    }
  }

  /** Looks at the lane again once a gap could have formed, until nothing is in flight. */
  function watch(network: Network, account: LocalAccount, delay = gapGraceMs + 500) {
    const key = laneKey(network, account)
    if (watched.has(key)) return
    watched.add(key)
    const timer = clock.setTimeout(() => {
      watched.delete(key)
      recover(network, account).catch(() => watch(network, account))
    }, delay)
    ;(timer as { unref?: () => void }).unref?.()
  }

  async function recover(network: Network, account: LocalAccount) {
    const key = laneKey(network, account)
    const [pending, mined] = await counts(network, account.address)
    const { text, lane } = await readLane(key)
    const now = clock.now()
    const inflight = lane.inflight.filter((e) => e.nonce >= mined)
    const gaps = inflight.filter((e) => e.nonce >= pending && (e.void || now - e.at >= gapGraceMs))
    for (const gap of gaps) gap.at = now
    if (
      gaps.length &&
      (await store.compareAndSet(key, JSON.stringify({ ...lane, inflight }), text))
    )
      await fill(network, account, gaps)
    if (inflight.length) watch(network, account)
  }

  // The relayer's balance and the fees, read once per block for every payment checked at it.
  const atBlock = new Map<string, ReturnType<typeof readBalanceAndFees>>()
  const readBalanceAndFees = (network: Network, account: LocalAccount, block: LatestBlock) =>
    Promise.all([
      network.publicClient.getBalance({ address: account.address, blockNumber: block.number }),
      network.publicClient.estimateFeesPerGas(),
    ])
  function balanceAndFees(network: Network, account: LocalAccount, block: LatestBlock) {
    const key = `${network.chain.id}:${account.address}:${block.hash}`
    let read = atBlock.get(key)
    if (!read) {
      if (atBlock.size >= 16) atBlock.clear()
      read = readBalanceAndFees(network, account, block)
      read.catch(() => atBlock.delete(key))
      atBlock.set(key, read)
    }
    return read
  }

  return {
    async prepare(context) {
      const account = pick()
      try {
        return await check(context, account)
      } catch (error) {
        release(account)
        throw error
      }
    },

    async send(context: SendContext, { account, fees }, mark): Promise<Hex> {
      try {
        return await sendWith(context, account, fees, mark)
      } finally {
        release(account)
      }
    },
  }

  /** The relayer's own checks with `account`: its balance, the fees, the transfer's gas. */
  async function check(
    { network, token, payment, block }: SendContext,
    account: LocalAccount,
  ): Promise<Prepared> {
    const { publicClient } = network
    const maxFeePerGas = network.config.maxFeePerGas ?? parseGwei('100')
    const floor = network.config.minRelayerBalance ?? maxGas * maxFeePerGas
    const [balance, fees] = await balanceAndFees(network, account, block).catch((error) => {
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
    // The token checks the signature (a contract payer's too) and the balance.
    let gas: bigint
    try {
      gas = await publicClient.estimateContractGas({
        account,
        address: token.address,
        abi: eip3009Abi,
        functionName: 'transferWithAuthorization',
        args: transferArgs(payment),
      })
    } catch (error) {
      throw classifyError(error)
    }
    if (gas > maxGas)
      throw relayError('GAS_LIMIT_EXCEEDED', {
        details: `needs ${gas} gas, the limit is ${maxGas}`,
      })
    return {
      account,
      fees: {
        // Room over the estimate, never over the limit: a payer's contract that turns costly
        // before the transaction is mined costs the relayer at most this.
        gas: min(maxGas, (gas * 5n) / 4n),
        maxFeePerGas: min(maxFeePerGas, fees.maxFeePerGas),
        maxPriorityFeePerGas: min(fees.maxPriorityFeePerGas, maxFeePerGas),
      },
    }
  }

  /** Takes the lane's next nonce, signs, puts the bytes on the claim (`mark`), then sends once. */
  async function sendWith(
    { network, token, payment, session }: SendContext,
    account: LocalAccount,
    fees: Fees,
    mark: (fields: Partial<RelayRecord>) => Promise<void>,
  ): Promise<Hex> {
    const { nonce, gaps } = await allocate(network, account, {
      sessionId: session.paymentSessionId,
      validBefore: payment.authorization.validBefore.toString(),
    })
    let raw: Hex
    try {
      raw = await account.signTransaction({
        type: 'eip1559',
        chainId: network.chain.id,
        to: token.address,
        data: encodeFunctionData({
          abi: eip3009Abi,
          functionName: 'transferWithAuthorization',
          args: transferArgs(payment),
        }),
        nonce,
        ...fees,
      })
      await mark({ relayer: account.address, relayerNonce: nonce, hash: keccak256(raw), raw })
    } catch (error) {
      await retract(network, account, nonce)
      throw notSent(error)
    }
    try {
      return await network.publicClient.sendRawTransaction({ serializedTransaction: raw })
    } catch (error) {
      // The node answered and refused it: nothing is pending. No answer: it may be.
      if (mayHaveBeenSent(error)) throw error
      await retract(network, account, nonce)
      throw notSent(error)
    } finally {
      fill(network, account, gaps).catch(() => {})
      watch(network, account)
    }
  }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}
