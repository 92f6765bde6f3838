import { sleep } from '@paysession/protocol'
import {
  type Address,
  BaseError,
  ExecutionRevertedError,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseEther,
  TransactionReceiptNotFoundError,
} from 'viem'
import { erc20Abi, tokenBySymbol } from '../chain/tokens.js'
import type { Context } from './context.js'
import { otwAccount } from './sessions.js'
import type { OutgoingRow } from './storage.js'

/** Runs fn after every earlier job of the same one-time wallet: one nonce sequence per OTW. */
export function inLane<T>(ctx: Context, otwIndex: number, fn: () => Promise<T>): Promise<T> {
  const prev = ctx.lanes.get(otwIndex) ?? Promise.resolve()
  const next = prev.then(fn, fn)
  ctx.lanes.set(
    otwIndex,
    next.catch(() => {}),
  )
  return next
}

/** A transfer that was mined but reverted: retrying would not help. */
export class RevertedError extends Error {}

/**
 * Sends a token transfer from a one-time wallet exactly once per `purpose`, write-ahead:
 * the signed raw transaction is stored in SQLite (with `record`, in the same SQLite
 * transaction) before it is broadcast. Called again for the same purpose (after a
 * crash, a node outage, a chain rollback) it re-broadcasts the stored bytes, never a
 * new transaction, and records the outcome once the chain state holding it is saved.
 * Earlier unsettled transfers of the same wallet are settled first, so nonces never
 * collide. The sandbox pays the OTW's gas.
 */
export async function sendFromOtw(
  ctx: Context,
  purpose: string,
  otwIndex: number,
  tokenSymbol: string,
  to: Address,
  value: bigint,
  record: (hash: Hex) => void = () => {},
): Promise<Hex> {
  for (const earlier of ctx.db.outgoing.unsettled())
    if (earlier.otw_index === otwIndex && earlier.purpose !== purpose) await settle(ctx, earlier)
  const existing = ctx.db.outgoing.get(purpose)
  if (existing) return settle(ctx, existing)

  const { publicClient, chain } = ctx.chain
  const account = otwAccount(ctx, otwIndex)
  const token = tokenBySymbol(tokenSymbol)
  if (!token) throw new Error(`unknown token ${tokenSymbol}`)
  await ensureGas(ctx, account.address)
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, value] })
  const [nonce, fees, gas] = await Promise.all([
    publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' }),
    publicClient.estimateFeesPerGas(),
    publicClient
      .estimateGas({ account: account.address, to: token.address, data })
      .catch((e: unknown) => {
        // The transfer would revert (e.g. the OTW no longer holds the funds): retrying cannot help.
        if (e instanceof BaseError && e.walk((x) => x instanceof ExecutionRevertedError))
          throw new RevertedError(`transfer from OTW ${account.address} reverts: ${e.shortMessage}`)
        throw e
      }),
  ])
  const raw = await account.signTransaction({
    chainId: chain.id,
    type: 'eip1559',
    to: token.address,
    data,
    nonce,
    gas: (gas * 12n) / 10n,
    // Room for the base fee to rise before a re-broadcast.
    maxFeePerGas: fees.maxFeePerGas * 2n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  })
  const now = ctx.clock.now()
  const row: OutgoingRow = {
    purpose,
    otw_index: otwIndex,
    nonce,
    hash: keccak256(raw),
    raw,
    state: 'SIGNED',
    block_number: null,
    error: null,
    created_at: now,
    updated_at: now,
  }
  ctx.db.transaction(() => {
    ctx.db.outgoing.insert(row)
    record(row.hash as Hex)
  })
  await ctx.testHooks.afterRecord?.(purpose)
  return settle(ctx, row)
}

async function ensureGas(ctx: Context, address: Address) {
  const { publicClient, testClient } = ctx.chain
  const balance = await publicClient.getBalance({ address })
  if (balance < parseEther('0.01'))
    await testClient.setBalance({ address, value: parseEther('0.1') })
}

const receiptOf = (ctx: Context, hash: Hex) =>
  ctx.chain.publicClient.getTransactionReceipt({ hash }).catch((e: unknown) => {
    if (e instanceof TransactionReceiptNotFoundError) return undefined
    throw e
  })

/**
 * Waits for a broadcast transaction's receipt. Gives up (the background loop settles it
 * again) after 10 s, or at once when anvil was restarted meanwhile: the restarted chain
 * may not have it, so it must be broadcast again rather than waited for.
 */
async function waitReceipt(ctx: Context, hash: Hex) {
  const epoch = ctx.chainEpoch()
  const deadline = ctx.clock.now() + 10_000
  for (;;) {
    const receipt = await receiptOf(ctx, hash).catch(() => undefined)
    if (receipt) return receipt
    if (ctx.chainEpoch() !== epoch || ctx.clock.now() > deadline)
      throw new Error(`transaction ${hash} is not mined yet`)
    await sleep(ctx.clock, 100)
  }
}

/** Brings a stored transfer to a mined (or reverted) outcome: broadcast again if the chain does not have it. */
export async function settle(ctx: Context, row: OutgoingRow): Promise<Hex> {
  const hash = row.hash as Hex
  if (row.state === 'REVERTED') throw new RevertedError(row.error ?? `transaction ${hash} reverted`)
  let receipt = await receiptOf(ctx, hash)
  if (!receipt) {
    const account = otwAccount(ctx, row.otw_index)
    await ensureGas(ctx, account.address)
    try {
      await ctx.chain.publicClient.sendRawTransaction({ serializedTransaction: row.raw as Hex })
    } catch (e) {
      const text = e instanceof BaseError ? `${e.shortMessage} ${e.details}` : String(e)
      if (/nonce too low/i.test(text) && !(await receiptOf(ctx, hash))) {
        // Another transaction used this nonce (someone else holds the key): this one can never be mined.
        ctx.db.outgoing.settle(row.purpose, {
          state: 'REVERTED',
          block_number: null,
          error: `transaction ${hash} was replaced on chain`,
          updated_at: ctx.clock.now(),
        })
        throw new RevertedError(`transaction ${hash} was replaced on chain`)
      }
      if (!/already known|already imported|nonce too low/i.test(text)) throw e
    }
    receipt = await waitReceipt(ctx, hash)
  }
  // The outcome is only recorded once the chain state that holds it is on disk.
  await ctx.durable()
  const reverted = receipt.status !== 'success'
  ctx.db.outgoing.settle(row.purpose, {
    state: reverted ? 'REVERTED' : 'MINED',
    block_number: Number(receipt.blockNumber),
    error: reverted ? `transaction ${hash} reverted` : null,
    updated_at: ctx.clock.now(),
  })
  if (reverted) throw new RevertedError(`transaction ${hash} reverted`)
  return hash
}

/** Settles stored transfers nobody is waiting for (after a restart, or a chain that lost them). */
export function createSettleWorker(ctx: Context) {
  const busy = new Set<string>()
  return function settleDue() {
    for (const row of ctx.db.outgoing.unsettled()) {
      if (busy.has(row.purpose)) continue
      busy.add(row.purpose)
      inLane(ctx, row.otw_index, () => {
        const fresh = ctx.db.outgoing.get(row.purpose)!
        return fresh.state === 'SIGNED' ? settle(ctx, fresh) : Promise.resolve(fresh.hash as Hex)
      })
        .catch((e) => ctx.logEvery(`transfer ${row.purpose}`, String(e)))
        .finally(() => busy.delete(row.purpose))
    }
  }
}
