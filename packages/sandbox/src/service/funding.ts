import {
  BlockNotFoundError,
  type Hex,
  type Log,
  parseEventLogs,
  TransactionReceiptNotFoundError,
} from 'viem'
import { erc20Abi, LOCAL_TOKENS, tokenByAddress, transferEvent } from '../chain/tokens.js'
import type { Context } from './context.js'
import { ApiError } from './errors.js'
import { inLane, sendFromOtw } from './otw.js'
import { amountUnits, isAccepted, TERMINAL, updateSession } from './sessions.js'
import type { TransferRow } from './storage.js'

type TransferLog = Log<bigint, number, false, typeof transferEvent, true>

/**
 * Applies one Transfer log to the session whose OTW it reached. Idempotent: a log
 * is applied once, by (tx hash, log index), whether the watcher or a report saw it first.
 */
function applyTransfer(ctx: Context, log: TransferLog) {
  const token = tokenByAddress(log.address)
  const s = token && ctx.db.sessions.byOtw(log.args.to)
  if (!token || !s) return
  const value = log.args.value
  ctx.db.transaction(() => {
    const fresh = ctx.db.sessions.get(s.id)!
    const funded = fresh.status === 'FUNDED' || fresh.status === 'CAPTURING'
    // A final capture in progress has already settled what the OTW holds: later funds go back.
    const finalInFlight = ctx.db.captures
      .forSession(fresh.id)
      .some((c) => c.final === 1 && c.status === 'CAPTURING')
    const counts =
      !TERMINAL.includes(fresh.status) &&
      !finalInFlight &&
      isAccepted(fresh, token.symbol) &&
      (!funded || fresh.token_symbol === token.symbol)
    const inserted = ctx.db.transfers.insert({
      tx_hash: log.transactionHash.toLowerCase(),
      log_index: log.logIndex,
      session_id: fresh.id,
      token_symbol: token.symbol,
      from_address: log.args.from.toLowerCase(),
      value_units: value.toString(),
      block_number: Number(log.blockNumber),
      disposition: counts ? 'FUNDING' : 'RETURN_PENDING',
      return_tx: null,
    })
    if (!inserted || !counts) return
    if (funded) {
      updateSession(ctx, fresh, {
        received_units: (BigInt(fresh.received_units) + value).toString(),
        capturable_units: (BigInt(fresh.capturable_units) + value).toString(),
      })
      return
    }
    // Not yet funded: what has arrived in this token, all transfers together.
    const received = ctx.db.transfers
      .forSession(fresh.id)
      .filter((t) => t.disposition === 'FUNDING' && t.token_symbol === token.symbol)
      .reduce((sum, t) => sum + BigInt(t.value_units), 0n)
    const reached = received >= amountUnits(fresh)
    updateSession(ctx, fresh, {
      status: reached ? 'FUNDED' : 'PENDING',
      received_units: received.toString(),
      user_address: fresh.user_address ?? log.args.from,
      ...(reached
        ? {
            token_symbol: token.symbol,
            funding_tx: log.transactionHash,
            capturable_units: received.toString(),
            user_address: log.args.from,
          }
        : {}),
    })
    // What arrived earlier in another accepted token can be neither captured nor refunded in
    // the funding token: it goes back to its sender.
    if (reached) ctx.db.transfers.returnFunding(fresh.id, token.symbol)
  })
}

const parseTransfers = (logs: Log[]) =>
  parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs }).filter((l) =>
    tokenByAddress(l.address),
  ) as TransferLog[]

/** How many blocks below a rollback's common ancestor are scanned again (reorg margin). */
export const SAFE_DEPTH = 12

const receiptOf = (ctx: Context, hash: Hex) =>
  ctx.chain.publicClient.getTransactionReceipt({ hash }).catch((e: unknown) => {
    if (e instanceof TransactionReceiptNotFoundError) return undefined
    throw e
  })

const hashAt = (ctx: Context, blockNumber: number) =>
  ctx.chain.publicClient
    .getBlock({ blockNumber: BigInt(blockNumber) })
    .then((b) => b.hash as string)
    .catch((e: unknown) => {
      if (e instanceof BlockNotFoundError) return undefined
      throw e
    })

/**
 * Checks that the chain still holds the blocks scanned last (their stored hashes).
 * When it went back (anvil restored an older state, or a reorg), scanning resumes
 * below the newest block both agree on, minus SAFE_DEPTH; transfers the chain no
 * longer has are not received; the sandbox's own transfers it lost are broadcast again.
 */
async function reconcile(ctx: Context, latest: number): Promise<number> {
  const scanned = Number(ctx.db.meta.get('scannedBlock') ?? '-1')
  const heads = ctx.db.heads.all()
  const top = heads[0]
  const wentBack =
    scanned > latest || (top !== undefined && (await hashAt(ctx, top.number)) !== top.hash)
  if (!wentBack) return scanned + 1
  let ancestor = -1
  for (const h of heads)
    if (h.number <= latest && (await hashAt(ctx, h.number)) === h.hash) {
      ancestor = h.number
      break
    }
  const from = Math.max(0, Math.min(ancestor + 1, latest, scanned + 1) - SAFE_DEPTH)
  ctx.log(
    `the chain went back (scanned to block ${scanned}, the chain now ends at ${latest}): rescanning from block ${from}`,
  )
  for (const t of ctx.db.transfers.since(from)) {
    const receipt = await receiptOf(ctx, t.tx_hash as Hex)
    if (receipt) ctx.db.transfers.moveTo(t.tx_hash, Number(receipt.blockNumber))
    else forgetTransfer(ctx, t)
  }
  for (const o of ctx.db.outgoing.minedSince(from))
    if (!(await receiptOf(ctx, o.hash as Hex))) {
      ctx.log(`transfer ${o.purpose} (${o.hash}) is no longer on chain: broadcasting it again`)
      ctx.db.outgoing.settle(o.purpose, {
        state: 'SIGNED',
        block_number: null,
        error: null,
        updated_at: ctx.clock.now(),
      })
    }
  ctx.db.transaction(() => {
    ctx.db.heads.prune(ancestor)
    ctx.db.meta.set('scannedBlock', String(from - 1))
  })
  return from
}

/** A transfer that vanished from the chain was not received. */
function forgetTransfer(ctx: Context, t: TransferRow) {
  const s = ctx.db.sessions.get(t.session_id)!
  if (t.disposition === 'FUNDING' && s.status !== 'CREATED' && s.status !== 'PENDING') {
    // Only when an older chain state had to be loaded (the current file was damaged): the session
    // cannot stay FUNDED for money that is not there.
    ctx.log(
      `session ${s.id} (${s.status}) was funded by transfer ${t.tx_hash}, which is no longer on chain`,
    )
    if (s.status === 'FUNDED') updateSession(ctx, s, { status: 'ERROR' })
    return
  }
  ctx.log(`transfer ${t.tx_hash} to session ${s.id} is no longer on chain: not received`)
  ctx.db.transaction(() => {
    ctx.db.transfers.remove(t.tx_hash, t.log_index)
    if (t.disposition !== 'FUNDING') return
    const received = ctx.db.transfers
      .forSession(s.id)
      .filter((x) => x.disposition === 'FUNDING' && x.token_symbol === s.token_symbol)
      .reduce((sum, x) => sum + BigInt(x.value_units), 0n)
    updateSession(ctx, s, { received_units: received.toString() })
  })
}

/**
 * Scans new blocks for transfers to any one-time wallet. The chain state holding
 * them is saved before any is recorded, so no session is FUNDED (and no FUNDED
 * webhook queued) for money a crash of anvil could take back.
 */
export function createFundingWatcher(ctx: Context) {
  return async function scan() {
    const { publicClient } = ctx.chain
    const latest = Number(await publicClient.getBlockNumber())
    const from = await reconcile(ctx, latest)
    if (from > latest) return
    const logs = await publicClient.getLogs({
      address: LOCAL_TOKENS.map((t) => t.address),
      event: transferEvent,
      fromBlock: BigInt(from),
      toBlock: BigInt(latest),
    })
    const mine = parseTransfers(logs).filter((l) => ctx.db.sessions.byOtw(l.args.to))
    if (mine.length) await ctx.durable()
    const hash = await hashAt(ctx, latest)
    ctx.db.transaction(() => {
      for (const log of mine) applyTransfer(ctx, log)
      if (hash) ctx.db.heads.add(latest, hash)
      ctx.db.heads.prune(latest)
      ctx.db.meta.set('scannedBlock', String(latest))
    })
  }
}

/** Applies a reported transaction at once (the watcher would find it too) and says what it did for this session. */
export async function processReportedTransaction(
  ctx: Context,
  sessionId: string,
  hash: Hex,
  timeoutMs: number,
) {
  const { publicClient } = ctx.chain
  let receipt: Awaited<ReturnType<typeof publicClient.getTransactionReceipt>>
  try {
    receipt = await publicClient.waitForTransactionReceipt({
      hash,
      timeout: timeoutMs,
      pollingInterval: 100,
    })
  } catch {
    return { processed: false as const }
  }
  if (receipt.status !== 'success')
    throw new ApiError(
      422,
      'TRANSACTION_REVERTED',
      'That transaction reverted on chain: no funds were sent.',
    )
  const session = ctx.db.sessions.get(sessionId)!
  const mine = parseTransfers(receipt.logs).filter(
    (l) =>
      l.args.to.toLowerCase() === session.otw_address &&
      isAccepted(session, tokenByAddress(l.address)!.symbol),
  )
  if (!mine.length)
    throw new ApiError(
      422,
      'TRANSACTION_DOES_NOT_FUND_SESSION',
      'That transaction does not transfer an accepted token to this session’s one-time wallet.',
    )
  await ctx.durable().catch((e: unknown) => {
    throw new ApiError(
      503,
      'CHAIN_STATE_UNAVAILABLE',
      `The payment was seen but cannot be recorded yet: ${e instanceof Error ? e.message : e}`,
    )
  })
  for (const log of mine) applyTransfer(ctx, log)
  return { processed: true as const }
}

/** Sends back what arrived where it could not count (after CANCELED, wrong token, ...). */
export function createReturnWorker(ctx: Context) {
  const busy = new Set<string>()
  return async function returnDue() {
    for (const t of ctx.db.transfers.pendingReturns()) {
      const key = `${t.tx_hash}:${t.log_index}`
      if (busy.has(key)) continue
      busy.add(key)
      const s = ctx.db.sessions.get(t.session_id)!
      inLane(ctx, s.otw_index, () =>
        sendFromOtw(
          ctx,
          `return:${key}`,
          s.otw_index,
          t.token_symbol,
          t.from_address as Hex,
          BigInt(t.value_units),
        ),
      )
        .then((hash) => {
          ctx.db.transfers.markReturned(t.tx_hash, t.log_index, hash)
          ctx.log(`returned ${t.value_units} ${t.token_symbol} units to ${t.from_address}`)
        })
        .catch((e) => ctx.logEvery(`return of ${key}`, String(e)))
        .finally(() => busy.delete(key))
    }
  }
}
