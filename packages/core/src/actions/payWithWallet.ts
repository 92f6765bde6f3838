import { getClient, getConnection, getConnectorClient, switchChain } from '@wagmi/core'
import {
  type Address,
  getAddress,
  type Hex,
  isAddress,
  type TransactionReceipt,
  zeroAddress,
} from 'viem'
import type { PaymentSession } from '../api/session.js'
import { decodeTransferLog, encodeTransfer } from '../chain/erc20.js'
import { getBlockNumber, getTokenBalance, sendTransaction } from '../chain/rpc.js'
import { waitForPaymentReceipt } from '../chain/waitForPaymentReceipt.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import { chainUnavailable } from '../errors/chain.js'
import { walletError } from '../errors/wallet.js'
import { resolveSessionAssets } from '../registry/registry.js'
import { parseAmount } from '../utils/amounts.js'
import {
  clearPaymentRecord,
  type PaymentRecord,
  readPaymentRecord,
  writePaymentRecord,
} from '../utils/paymentRecord.js'
import { isPaidStatus } from '../utils/status.js'
import { type ReportFundingReturnType, reportFunding } from './reportFunding.js'

export type PayWithWalletParameters = {
  session: PaymentSession
  sessionToken: string
  /** Token symbol; must be one the session accepts. */
  token: string
  /** Called once the wallet has sent the transfer (and again with a replacement's hash). */
  onHash?: ((hash: Hex) => void) | undefined
  /** Called when the service acknowledged the hash. */
  onReported?: ((response: ReportFundingReturnType) => void) | undefined
  /** Called right before the wallet prompt opens (the payment record is written). */
  onPrompt?: (() => void) | undefined
  confirmations?: number | undefined
}
export type PayWithWalletReturnType = {
  hash: Hex
  receipt: TransactionReceipt
  /** Whether the service acknowledged the hash (it also sees the transfer on chain anyway). */
  reported: boolean
  reportError?: PaySessionError | undefined
}
export type PayWithWalletErrorType = PaySessionError

/**
 * Pays the session with one ERC-20 `transfer(oneTimeWallet, amount)` from the connected wallet.
 * Checks first (token known, OTW address valid, right network, enough balance), records the
 * payment before the prompt opens, reports the hash (retried), waits for the receipt (following
 * replacements) and verifies the Transfer log. The transfer itself is never retried.
 * @example const { hash } = await payWithWallet(config, { session, sessionToken, token: 'USDC' })
 */
export async function payWithWallet(
  config: PaySessionConfig,
  parameters: PayWithWalletParameters,
): Promise<PayWithWalletReturnType> {
  const { session, sessionToken } = parameters
  const sessionId = session.paymentSessionId
  const wagmi = config.wagmiConfig

  if (isPaidStatus(session.status)) throw new PaySessionError('ALREADY_PAID')
  if (session.status === 'CANCELED') throw new PaySessionError('SESSION_EXPIRED')
  if (session.status === 'ERROR') throw new PaySessionError('SESSION_FAILED')
  const { network, tokens } = resolveSessionAssets(config.registry, session)
  const token = tokens.find((t) => t.symbol === parameters.token.toUpperCase())
  if (!token) throw new PaySessionError('UNSUPPORTED_TOKEN', { details: parameters.token })
  const otw = session.oneTimeWalletAddress
  if (
    !otw ||
    !isAddress(otw, { strict: true }) ||
    otw === zeroAddress ||
    getAddress(otw) === token.address
  )
    throw new PaySessionError('INVALID_ADDRESS', { details: `one-time wallet ${otw}` })
  const to = getAddress(otw)
  const amount = parseAmount(session.amount, token.decimals)

  const connection = getConnection(wagmi)
  if (connection.status !== 'connected') throw new PaySessionError('WALLET_NOT_CONNECTED')
  const account = connection.address
  if (connection.chainId !== network.chainId) {
    try {
      await switchChain(wagmi, {
        chainId: network.chainId,
        addEthereumChainParameter: {
          chainName: network.chain.name,
          nativeCurrency: network.chain.nativeCurrency,
          rpcUrls: network.chain.rpcUrls.default.http,
          ...(network.explorerUrl ? { blockExplorerUrls: [network.explorerUrl] } : {}),
        },
      })
    } catch (error) {
      // Declined or impossible switch: the wallet stays on another network.
      throw new PaySessionError('WRONG_NETWORK', { details: network.name, cause: error })
    }
  }

  const client = getClient(wagmi, { chainId: network.chainId })
  if (!client) throw chainUnavailable(config, network)
  let balance: bigint
  let fromBlock: bigint
  try {
    ;[balance, fromBlock] = await Promise.all([
      getTokenBalance(client, token.address, account),
      getBlockNumber(client),
    ])
  } catch (error) {
    throw chainUnavailable(config, network, error)
  }
  if (balance < amount)
    throw new PaySessionError('INSUFFICIENT_BALANCE', {
      details: `${token.symbol} balance ${balance} < ${amount}`,
    })

  // Never twice: read and write the record with no await in between, before the prompt opens.
  if (readPaymentRecord(config.storage, sessionId)) throw new PaySessionError('PAYMENT_IN_PROGRESS')
  let record: PaymentRecord = {
    version: 1,
    sessionId,
    state: 'prompting',
    chainId: network.chainId,
    token: token.symbol,
    tokenAddress: token.address,
    from: account,
    to,
    amount: amount.toString(),
    fromBlock: fromBlock.toString(),
    createdAt: Date.now(),
  }
  writePaymentRecord(config.storage, record)
  parameters.onPrompt?.()

  let hash: Hex
  try {
    // The wallet's client checks it is still connected with this account, on this chain.
    const wallet = await getConnectorClient(wagmi, { chainId: network.chainId, account })
    hash = await sendTransaction(wallet, {
      from: account,
      to: token.address,
      data: encodeTransfer(to, amount),
      chainId: network.chainId,
    })
  } catch (error) {
    const mapped = walletError(error)
    // Only when we know nothing was sent is the record cleared. Otherwise the wallet answered
    // without a hash: no prompt is open any more, but the chain decides before another payment.
    if (['USER_REJECTED', 'WRONG_NETWORK', 'WALLET_NOT_CONNECTED'].includes(mapped.code))
      clearPaymentRecord(config.storage, sessionId)
    else writePaymentRecord(config.storage, { ...record, state: 'ended' })
    throw mapped
  }

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
      payment: { token: token.address, from: account, to, fromBlock },
      confirmations: parameters.confirmations ?? config.confirmations,
      pollingInterval: client.pollingInterval,
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
  return receipt.logs.some((log) => {
    const transfer = decodeTransferLog(log)
    return (
      transfer?.token === token &&
      transfer.from === from &&
      transfer.to === to &&
      transfer.value === amount
    )
  })
}
