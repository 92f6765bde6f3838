import type { Address, Hex, TransactionReceipt } from 'viem'
import { PaySessionError } from '../errors/base.js'
import { findTransfers } from './findTransfers.js'
import {
  getBlockNumber,
  getTransaction,
  getTransactionCount,
  getTransactionReceipt,
  type RpcClient,
} from './rpc.js'

export type WaitForPaymentReceiptParameters = {
  hash: Hex
  /**
   * The transfer the transaction makes. With it, a transaction that disappears (sped up or
   * replaced in the wallet) is followed to the payer's transfer to the one-time wallet on chain.
   */
  payment?: { token: Address; from: Address; to: Address; fromBlock: bigint } | undefined
  /** Blocks the receipt must be deep. Default 1. */
  confirmations?: number | undefined
  /** Between two looks at the chain (ms): the chain client's `pollingInterval`. */
  pollingInterval: number
  /** Give up after this many ms. Default 180 000 (what viem's `waitForTransactionReceipt` did). */
  timeout?: number | undefined
  signal?: AbortSignal | undefined
  /** A replacement was found: from now on its hash is the payment's. */
  onReplaced?: ((hash: Hex) => void) | undefined
}

/**
 * Resolves with the receipt of the payment's transaction (or of its replacement) once it is
 * `confirmations` deep. Rejects with `TRANSFER_MISMATCH` when the transaction was replaced by one
 * that pays nothing to the one-time wallet (cancelled in the wallet), otherwise with the RPC error,
 * `TIMEOUT` or `ABORTED`.
 *
 * A transaction that the node no longer knows is dropped or replaced: once the sender's nonce has
 * moved past it, the payer's `Transfer` to the one-time wallet since the prompt opened is its
 * replacement. When there is none, the nonce was spent on something else: seen on two looks in a
 * row before concluding, so a node that lags behind another one cannot fake it.
 */
export async function waitForPaymentReceipt(
  client: RpcClient,
  parameters: WaitForPaymentReceiptParameters,
): Promise<TransactionReceipt> {
  const { payment, signal, onReplaced } = parameters
  const confirmations = BigInt(Math.max(1, parameters.confirmations ?? 1))
  const deadline = Date.now() + (parameters.timeout ?? 180_000)
  let hash = parameters.hash
  let nonce: number | undefined
  let cancelledLooks = 0 // looks in a row that found the nonce spent and no transfer
  let failures = 0 // looks in a row that failed (each already retried by the transport)
  let looks = 0

  for (;;) {
    if (signal?.aborted) throw new PaySessionError('ABORTED', { cause: signal.reason })
    try {
      let cancelled = false // this look found the nonce spent and no transfer to the OTW
      const receipt = await getTransactionReceipt(client, hash)
      const transaction = receipt ? undefined : await getTransaction(client, hash)
      if (receipt) {
        const depth =
          confirmations === 1n ? 1n : (await getBlockNumber(client)) - receipt.blockNumber + 1n
        if (depth >= confirmations) return receipt
      } else if (transaction) nonce = transaction.nonce
      else if (payment) {
        // Unknown here: not seen yet, dropped, or replaced (its nonce spent by another one).
        const nonceSpent =
          nonce !== undefined && (await getTransactionCount(client, payment.from)) > nonce
        if (nonce === undefined || nonceSpent) {
          const transfers = (await findTransfers(client, payment)).map(
            (transfer) => transfer.transactionHash,
          )
          const replacement = transfers.find((found) => found && found !== hash)
          if (replacement && !transfers.includes(hash)) {
            hash = replacement
            nonce = undefined
            cancelledLooks = 0
            onReplaced?.(replacement)
            continue
          }
          cancelled = nonceSpent && !transfers.includes(hash)
        }
      }
      cancelledLooks = cancelled ? cancelledLooks + 1 : 0
      if (cancelledLooks >= 2)
        throw new PaySessionError('TRANSFER_MISMATCH', {
          details: `transaction ${hash} was replaced by one that does not pay ${payment?.to}`,
        })
      failures = 0
    } catch (error) {
      if (error instanceof PaySessionError || ++failures > 3) throw error
    }
    if (Date.now() >= deadline)
      throw new PaySessionError('TIMEOUT', { details: `no receipt for ${hash}` })
    // A transaction the wallet just returned is often mined within a block or two: look again
    // soon, then back off to the chain client's polling interval.
    await sleep(Math.min(parameters.pollingInterval, 250 * 2 ** looks++), signal)
  }
}

/**
 * Waits, however long, for the payer's Transfer to the one-time wallet since `fromBlock`: for a
 * wallet that accepted the payment without sending it yet (a Safe waiting for more owners, a
 * user operation, a call bundle still pending). Resolves with the transaction hash that made it;
 * rejects only with `ABORTED`. A failing look is retried at the next interval.
 */
export async function waitForTransfer(
  client: RpcClient,
  parameters: {
    payment: { token: Address; from: Address; to: Address; fromBlock: bigint }
    pollingInterval: number
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
      const head = await getBlockNumber(client)
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
    await sleep(Math.max(parameters.pollingInterval, 1000), signal)
  }
}

function sleep(ms: number, signal: AbortSignal | undefined) {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done)
  })
}
