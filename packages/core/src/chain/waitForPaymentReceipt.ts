import { type Clock, sleep } from '@paysession/protocol'
import {
  type Address,
  type Client,
  type Hex,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
} from 'viem'
import {
  getBlockNumber,
  getTransaction,
  getTransactionCount,
  getTransactionReceipt,
  waitForTransactionReceipt,
} from 'viem/actions'
import { PaySessionError } from '../errors/base.js'
import { parseTransfers } from './erc20.js'
import { findTransfers } from './findTransfers.js'

const never = new Promise<never>(() => {})

type Payment = { token: Address; from: Address; to: Address; fromBlock: bigint }

export type WaitForPaymentReceiptParameters = {
  hash: Hex
  /**
   * The transfer the transaction makes (and its nonce, when known). With it, a transaction
   * replaced in the wallet (sped up or cancelled) is followed to its replacement, which must
   * still pay the one-time wallet.
   */
  payment?: (Payment & { nonce?: number | undefined }) | undefined
  /** Blocks the receipt must be deep. Default 1. */
  confirmations?: number | undefined
  /** Between two looks at the chain (ms): the chain client's `pollingInterval`. */
  pollingInterval: number
  /** Give up after this many ms. Default 180 000, viem's. */
  timeout?: number | undefined
  /** Times the looks beside viem's wait and the time-out (`config.polling.clock`). */
  clock: Clock
  signal?: AbortSignal | undefined
  /** A replacement that pays the one-time wallet was found: from now on its hash is the payment's. */
  onReplaced?: ((hash: Hex) => void) | undefined
}

/**
 * Resolves with the receipt of the payment's transaction (or of its replacement) once it is
 * `confirmations` deep: viem's `waitForTransactionReceipt`, with the payment's own check beside it
 * (`findReplacement`) and, one block deep, a look for the receipt every interval (a node may serve
 * it after it names its block, and viem's wait looks again only at a new block). A replacement that pays nothing to the one-time wallet (cancelled in the
 * wallet) rejects with `TRANSFER_MISMATCH`; otherwise rejects with the RPC error, `TIMEOUT` or
 * `ABORTED`.
 */
export async function waitForPaymentReceipt(
  client: Client,
  parameters: WaitForPaymentReceiptParameters,
): Promise<TransactionReceipt> {
  const { payment, signal, pollingInterval, clock } = parameters
  let cancelled: Hex | undefined
  // viem's wait and findReplacement may both find the same replacement: it is announced once.
  let current = parameters.hash
  const replacedBy = (hash: Hex) => {
    if (hash === current) return
    current = hash
    parameters.onReplaced?.(hash)
  }
  const wait = async (hash: Hex) => {
    const timeout = parameters.timeout ?? 180_000
    const confirmations = Math.max(1, parameters.confirmations ?? 1)
    const looking = new AbortController()
    const viemWait = waitForTransactionReceipt(client, {
      hash,
      confirmations,
      pollingInterval,
      timeout,
      checkReplacement: !!payment,
      onReplaced: ({ transaction, transactionReceipt }) => {
        if (payment && parseTransfers(transactionReceipt.logs, payment).length)
          replacedBy(transaction.hash)
        else cancelled = transaction.hash
      },
    }).catch((error) => {
      // A node that named the block before it served the receipt: the looks below find it.
      if (error instanceof TransactionReceiptNotFoundError && confirmations === 1) return never
      if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error
      throw timedOut(hash, error)
    })
    // viem's wait looks again only at a new block, and a quiet chain (anvil's automine) may make
    // none: one block deep is also looked for every interval, until the same time-out.
    const looks =
      confirmations === 1
        ? Promise.race([
            lookForReceipt(client, hash, pollingInterval, clock, looking.signal),
            sleep(clock, timeout, looking.signal).then(() => {
              if (!looking.signal.aborted) throw timedOut(hash)
              return never
            }),
          ])
        : never
    let receipt: TransactionReceipt
    try {
      receipt = await Promise.race([viemWait, looks])
    } finally {
      looking.abort()
    }
    if (cancelled)
      throw new PaySessionError('TRANSFER_MISMATCH', {
        details: `transaction ${hash} was replaced by ${cancelled}, which does not pay ${payment?.to}`,
      })
    return receipt
  }
  if (!payment) return abortable(wait(parameters.hash), signal)
  let found = false
  const done = new AbortController()
  const stop = () => done.abort()
  signal?.addEventListener('abort', stop, { once: true })
  try {
    const replaced = findReplacement(client, {
      hash: parameters.hash,
      payment,
      pollingInterval,
      clock,
      signal: done.signal,
    }).then((replacement) => {
      found = true
      replacedBy(replacement)
      return wait(replacement)
    })
    // Once a replacement is found, the original's wait no longer decides (its time-out included).
    const original = wait(parameters.hash).catch((error) => (found ? never : Promise.reject(error)))
    return await abortable(Promise.race([original, replaced]), signal)
  } finally {
    stop()
    signal?.removeEventListener('abort', stop)
  }
}

/**
 * What viem's wait cannot see: it finds a replacement by the nonce of the transaction it fetched
 * itself, so one replaced before that, or never seen by this node, goes unnoticed until its
 * time-out. Looks every interval: the payer's `Transfer` to the one-time wallet under another
 * hash is the replacement (resolves with its hash); the nonce spent with no such transfer, seen
 * on two looks in a row so that a lagging node cannot fake it, is a cancellation
 * (`TRANSFER_MISMATCH`). Never settles once the transaction itself is mined (viem's wait has it)
 * or the signal aborts.
 */
async function findReplacement(
  client: Client,
  parameters: {
    hash: Hex
    payment: Payment & { nonce?: number | undefined }
    pollingInterval: number
    clock: Clock
    signal: AbortSignal
  },
): Promise<Hex> {
  const { hash, payment, signal } = parameters
  let nonce = payment.nonce
  let spentLooks = 0
  for (;;) {
    if (signal.aborted) return never
    try {
      nonce ??= await getTransaction(client, { hash }).then(
        (transaction) => transaction.nonce,
        () => undefined,
      )
      if (await getTransactionReceipt(client, { hash }).catch(() => undefined)) return never
      const spent =
        nonce !== undefined &&
        (await getTransactionCount(client, { address: payment.from, blockTag: 'latest' })) > nonce
      const transfers = (await findTransfers(client, payment)).map((log) => log.transactionHash)
      if (transfers.includes(hash)) return never
      if (transfers[0]) return transfers[0]
      spentLooks = spent ? spentLooks + 1 : 0
      if (spentLooks >= 2)
        throw new PaySessionError('TRANSFER_MISMATCH', {
          details: `the nonce of ${hash} was spent on a transaction that does not pay ${payment.to}`,
        })
    } catch (error) {
      if (error instanceof PaySessionError) throw error
      // The node could not be read: viem's wait reports what matters; look again later.
    }
    await sleep(parameters.clock, parameters.pollingInterval, signal)
  }
}

/**
 * The transaction's receipt, looked for every interval until found or `signal` aborts. The first
 * look comes sooner: a node that named the block serves its receipts within milliseconds.
 */
async function lookForReceipt(
  client: Client,
  hash: Hex,
  pollingInterval: number,
  clock: Clock,
  signal: AbortSignal,
): Promise<TransactionReceipt> {
  for (let look = 0; ; look++) {
    await sleep(clock, look ? pollingInterval : Math.min(50, pollingInterval), signal)
    if (signal.aborted) return never
    const receipt = await getTransactionReceipt(client, { hash }).catch(() => undefined)
    if (receipt) return receipt
  }
}

const timedOut = (hash: Hex, cause?: unknown) =>
  new PaySessionError('TIMEOUT', { details: `no receipt for ${hash}`, cause })

/** Rejects with `ABORTED` when `signal` aborts (viem's wait runs on to its own end, unobserved). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new PaySessionError('ABORTED', { cause: signal.reason }))
    if (signal.aborted) return abort()
    signal.addEventListener('abort', abort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}

/**
 * Waits, however long, for the payer's Transfer to the one-time wallet since `fromBlock`: for a
 * wallet that accepted the payment without sending it yet (a Safe waiting for more owners, a
 * user operation, a call bundle still pending). Resolves with the transaction hash that made it;
 * rejects only with `ABORTED`. A failing look is retried at the next interval.
 */
export async function waitForTransfer(
  client: Client,
  parameters: {
    payment: Payment
    pollingInterval: number
    clock: Clock
    signal?: AbortSignal | undefined
  },
): Promise<Hex> {
  const { signal } = parameters
  // Each look reads only the blocks since the last (bounded ranges, findTransfers.ts), with a
  // few blocks of overlap for a reorganised head: a wait of days on a fast chain stays cheap.
  let fromBlock = parameters.payment.fromBlock
  for (;;) {
    if (signal?.aborted) throw new PaySessionError('ABORTED', { cause: signal.reason })
    try {
      const head = await getBlockNumber(client, { cacheTime: 0 })
      const [found] = await findTransfers(client, {
        ...parameters.payment,
        fromBlock,
        toBlock: head,
        first: true,
      })
      if (found) return found.transactionHash
      if (head - 12n > fromBlock) fromBlock = head - 12n
    } catch {
      // The node could not be read: look again at the next interval.
    }
    await sleep(parameters.clock, Math.max(parameters.pollingInterval, 1000), signal)
  }
}
