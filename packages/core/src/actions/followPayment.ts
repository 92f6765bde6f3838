import type { Address, Hex, TransactionReceipt } from 'viem'
import { parseTransfers } from '../chain/erc20.js'
import { waitForPaymentReceipt } from '../chain/waitForPaymentReceipt.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import {
  clearPaymentRecord,
  type PaymentRecord,
  writePaymentRecord,
} from '../utils/paymentRecord.js'
import type { PreparedPayment } from './preparePayment.js'
import { type ReportFundingReturnType, reportFunding } from './reportFunding.js'

// What every way of paying does once a transaction is sent.

/** After the hash: the transfer failed, paid something else, or the chain did not answer. */
export type FollowPaymentErrorCode =
  | 'TRANSACTION_FAILED'
  | 'TRANSFER_MISMATCH'
  | 'CHAIN_UNAVAILABLE'
  | 'ABORTED'
  | 'TIMEOUT'
export type FollowPaymentErrorType = PaySessionError<FollowPaymentErrorCode>

export type FollowPaymentParameters = {
  sessionToken: string
  /** Called once the wallet has sent the transfer (and again with a replacement's hash). */
  onHash?: ((hash: Hex) => void) | undefined
  /** Called when the service acknowledged the hash. */
  onReported?: ((response: ReportFundingReturnType) => void) | undefined
  confirmations?: number | undefined
}
export type FollowPaymentReturnType = {
  hash: Hex
  receipt: TransactionReceipt
  /** Whether the service acknowledged the hash (it also sees the transfer on chain anyway). */
  reported: boolean
  reportError?: PaySessionError | undefined
}

/**
 * Once a transaction is sent: reports its hash (retried), waits for the receipt and verifies the
 * Transfer log. `replaceable`: the payer's own transaction, so a replacement is followed.
 */
export async function followPayment(
  config: PaySessionConfig,
  parameters: FollowPaymentParameters,
  payment: PreparedPayment,
  startRecord: PaymentRecord,
  sent: Hex,
  /** The payer's own transaction (its nonce when known): a replacement is followed. */
  replaceable: { nonce?: number | undefined } | undefined,
): Promise<FollowPaymentReturnType> {
  const { sessionToken } = parameters
  const { client, token, account, to, amount, fromBlock } = payment
  const sessionId = startRecord.sessionId
  let record = startRecord
  let hash = sent
  const reports: Promise<ReportFundingReturnType>[] = []
  const submitted = (next: Hex) => {
    hash = next
    record = { ...record, state: 'submitted', hash: next }
    writePaymentRecord(config.storage, record)
    parameters.onHash?.(next)
    const report = reportFunding(config, { sessionId, sessionToken, hash: next })
    report.then(parameters.onReported, () => {})
    reports.push(report)
  }
  submitted(hash)

  let receipt: TransactionReceipt
  try {
    receipt = await waitForPaymentReceipt(client, {
      hash,
      payment: replaceable && {
        token: token.address,
        from: account,
        to,
        fromBlock,
        ...replaceable,
      },
      confirmations: parameters.confirmations ?? config.confirmations,
      pollingInterval: client.pollingInterval,
      clock: config.polling.clock,
      onReplaced: submitted,
    })
  } catch (error) {
    // Replaced by a transaction that pays nothing: nothing moved, a new payment is allowed.
    if (error instanceof PaySessionError && error.code === 'TRANSFER_MISMATCH') {
      clearPaymentRecord(config.storage, sessionId)
      throw error
    }
    // The transfer may still land: keep the record so nobody pays twice.
    throw new PaySessionError('CHAIN_UNAVAILABLE', { details: `waiting for ${hash}`, cause: error })
  }
  if (receipt.status !== 'success' || !paysSession(receipt, token.address, account, to, amount)) {
    clearPaymentRecord(config.storage, sessionId)
    throw new PaySessionError(
      receipt.status === 'success' ? 'TRANSFER_MISMATCH' : 'TRANSACTION_FAILED',
      {
        details: `transaction ${receipt.transactionHash}`,
      },
    )
  }

  const settled = await Promise.allSettled(reports)
  const last = settled[settled.length - 1]!
  return {
    hash: receipt.transactionHash,
    receipt,
    reported: settled.some((r) => r.status === 'fulfilled'),
    reportError: last.status === 'rejected' ? (last.reason as PaySessionError) : undefined,
  }
}

function paysSession(
  receipt: TransactionReceipt,
  token: Address,
  from: Address,
  to: Address,
  amount: bigint,
) {
  return parseTransfers(receipt.logs, { token, from, to }).some((log) => log.args.value === amount)
}
