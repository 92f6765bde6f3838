import {
  getCapabilities,
  getClient,
  getConnection,
  getConnectorClient,
  switchChain,
} from '@wagmi/core'
import {
  type Address,
  type Client,
  getAddress,
  type Hex,
  isAddress,
  type TransactionReceipt,
  zeroAddress,
} from 'viem'
import type { PaymentSession } from '../api/session.js'
import { decodeTransferLog, encodeTransfer } from '../chain/erc20.js'
import { getBlockNumber, getTokenBalance, getTransaction, sendTransaction } from '../chain/rpc.js'
import { waitForPaymentReceipt, waitForTransfer } from '../chain/waitForPaymentReceipt.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import { chainUnavailable } from '../errors/chain.js'
import { walletError } from '../errors/wallet.js'
import { resolveSessionAssets } from '../registry/registry.js'
import type { NetworkInfo, StablecoinInfo } from '../registry/types.js'
import { parseAmount } from '../utils/amounts.js'
import { checkExpectedPayment, type ExpectedPayment } from '../utils/expectedPayment.js'
import { withPaymentLock } from '../utils/paymentLock.js'
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
  /**
   * Called when the wallet accepted the payment but has not sent it (a multisig, a bundler): the
   * payment then waits for the transfer on chain, however long, until `signal` aborts.
   */
  onAwaitingWallet?: (() => void) | undefined
  signal?: AbortSignal | undefined
  confirmations?: number | undefined
} & ExpectedPayment
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
  const payment = await preparePayment(config, parameters)
  const { account, network, token, to, amount, client } = payment
  const chainId = network.chainId
  // EIP-5792: a wallet that reports capabilities on this chain gets the transfer as a call bundle.
  const capabilities = await getCapabilities(config.wagmiConfig, { account, chainId }).catch(
    () => undefined,
  )
  const bundles = !!capabilities
  const sessionId = parameters.session.paymentSessionId
  const call = { to: token.address, data: encodeTransfer(to, amount) }
  // Never twice across pages: one page at a time holds the session's lock from reading the
  // record to the wallet's answer (utils/paymentLock.ts).
  let record!: PaymentRecord
  let hash = await withPaymentLock(sessionId, async (): Promise<Hex | undefined> => {
    record = startPaymentRecord(config, sessionId, payment)
    parameters.onPrompt?.()
    try {
      if (bundles)
        return await (await import('./lazyActions.js')).sendWithCalls(config, {
          account,
          chainId,
          call,
          capabilities,
        })
      // The wallet's client checks it is still connected with this account, on this chain.
      const wallet = await getConnectorClient(config.wagmiConfig, { chainId, account })
      return await sendTransaction(wallet, { from: account, ...call, chainId })
    } catch (error) {
      const mapped = walletError(error)
      // Only when we know nothing was sent is the record cleared. Otherwise the wallet answered
      // without a hash: no prompt is open any more, but the chain decides before another payment.
      if (['USER_REJECTED', 'WRONG_NETWORK', 'WALLET_NOT_CONNECTED'].includes(mapped.code))
        clearPaymentRecord(config.storage, sessionId)
      else writePaymentRecord(config.storage, { ...record, state: 'ended' })
      throw mapped
    }
  })
  // A Safe's hash or a user-operation hash is not a transaction: never reported as the funding
  // hash. The wallet will send later, maybe days later: wait for the transfer on chain.
  const onChain = !!hash && (bundles || (await isOnChain(client, hash)))
  if (!onChain) {
    record = { ...record, state: 'awaitingWallet' }
    writePaymentRecord(config.storage, record)
    parameters.onAwaitingWallet?.()
    hash = await waitForTransfer(client, {
      payment: { token: token.address, from: account, to, fromBlock: payment.fromBlock },
      pollingInterval: client.pollingInterval,
      signal: parameters.signal,
    })
  }
  return followPayment(config, parameters, payment, record, hash!, onChain && !bundles)
}

// A hash a node knows (pending or mined). A node behind the wallet's may need a moment.
async function isOnChain(client: Client, hash: Hex) {
  for (let look = 0; ; look++) {
    if (await getTransaction(client, hash).then(Boolean, () => true)) return true
    if (look === 2) return false
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

/** What a payment pays, checked before any prompt opens: the wallet is on the right network. */
export type PreparedPayment = {
  network: NetworkInfo
  token: StablecoinInfo
  to: Address
  amount: bigint
  account: Address
  client: Client
  fromBlock: bigint
}

/**
 * Checks first (session payable and the order the page expects, token known, OTW address valid, right network, enough balance):
 * shared by every way of paying.
 */
export async function preparePayment(
  config: PaySessionConfig,
  parameters: Pick<PayWithWalletParameters, 'session' | 'token'> & ExpectedPayment,
): Promise<PreparedPayment> {
  const { session } = parameters
  const wagmi = config.wagmiConfig

  if (isPaidStatus(session.status)) throw new PaySessionError('ALREADY_PAID')
  if (session.status === 'CANCELED') throw new PaySessionError('SESSION_EXPIRED')
  if (session.status === 'ERROR') throw new PaySessionError('SESSION_FAILED')
  checkExpectedPayment(session, parameters)
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
  return { network, token, to, amount, account, client, fromBlock }
}

/**
 * Never twice: reads and writes the session's payment record with no await in between, right
 * before the prompt opens. `validBefore`: until then a signed authorization may still move funds.
 */
export function startPaymentRecord(
  config: PaySessionConfig,
  sessionId: string,
  payment: PreparedPayment,
  validBefore?: bigint,
): PaymentRecord {
  if (readPaymentRecord(config.storage, sessionId)) throw new PaySessionError('PAYMENT_IN_PROGRESS')
  const record: PaymentRecord = {
    version: 1,
    sessionId,
    state: 'prompting',
    chainId: payment.network.chainId,
    token: payment.token.symbol,
    tokenAddress: payment.token.address,
    from: payment.account,
    to: payment.to,
    amount: payment.amount.toString(),
    fromBlock: payment.fromBlock.toString(),
    createdAt: Date.now(),
    ...(validBefore === undefined ? {} : { validBefore: validBefore.toString() }),
  }
  writePaymentRecord(config.storage, record)
  return record
}

/**
 * Once a transaction is sent: reports its hash (retried), waits for the receipt and verifies the
 * Transfer log. `replaceable`: the payer's own transaction, so a replacement is followed.
 */
export async function followPayment(
  config: PaySessionConfig,
  parameters: PayWithWalletParameters,
  payment: PreparedPayment,
  startRecord: PaymentRecord,
  sent: Hex,
  replaceable: boolean,
): Promise<PayWithWalletReturnType> {
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
      payment: replaceable ? { token: token.address, from: account, to, fromBlock } : undefined,
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
