import { getCapabilities, getConnectorClient } from '@wagmi/core'
import { type Client, type Hex, numberToHex, TransactionNotFoundError } from 'viem'
import { getTransaction } from 'viem/actions'
import type { PaymentSession } from '../api/session.js'
import { encodeTransfer } from '../chain/erc20.js'
import { waitForTransfer } from '../chain/waitForPaymentReceipt.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import type { PaySessionError } from '../errors/base.js'
import { type WalletErrorCode, walletError } from '../errors/wallet.js'
import type { ExpectedPayment } from '../utils/expectedPayment.js'
import { withPaymentLock } from '../utils/paymentLock.js'
import {
  clearPaymentRecord,
  type PaymentRecord,
  writePaymentRecord,
} from '../utils/paymentRecord.js'
import { poll } from '../utils/poll.js'
import type { FollowPaymentErrorCode } from './followPayment.js'
import {
  type FollowPaymentParameters,
  type FollowPaymentReturnType,
  followPayment,
} from './followPayment.js'
import {
  type PreparedPayment,
  type PreparePaymentErrorCode,
  preparePayment,
  startPaymentRecord,
} from './preparePayment.js'
import type { SendWithCalls } from './sendWithCalls.js'

export type PayWithWalletParameters = FollowPaymentParameters & {
  session: PaymentSession
  /** Token symbol; must be one the session accepts. */
  token: string
  /** Called right before the wallet prompt opens (the payment record is written). */
  onPrompt?: (() => void) | undefined
  /**
   * Called when the wallet accepted the payment but has not sent it (a multisig, a bundler): the
   * payment then waits for the transfer on chain, however long, until `signal` aborts.
   */
  onAwaitingWallet?: (() => void) | undefined
  /**
   * EIP-5792: how to send the transfer as a call bundle to a wallet that reports capabilities on
   * the session's chain: `sendWithCalls` of `@paysession/core/calls` (or a loader of it). Without
   * it every wallet gets `eth_sendTransaction`.
   */
  sendCalls?: SendWithCalls | undefined
  /**
   * `preparePayment`'s checks of this payment, when the caller started them already (the checkout
   * asks them beside its last status read, in the same round trip). Without it, asked here.
   */
  prepared?: Promise<PreparedPayment> | undefined
  signal?: AbortSignal | undefined
} & ExpectedPayment
export type PayWithWalletReturnType = FollowPaymentReturnType
export type PayWithWalletErrorType = PaySessionError<
  PreparePaymentErrorCode | WalletErrorCode | FollowPaymentErrorCode
>

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
  const payment = await (parameters.prepared ?? preparePayment(config, parameters))
  const { account, network, token, to, amount, client } = payment
  const chainId = network.chainId
  const { sendCalls } = parameters
  // EIP-5792: a wallet that reports capabilities on this chain gets the transfer as a call bundle.
  const capabilities = sendCalls
    ? await getCapabilities(config.wagmiConfig, { account, chainId }).catch(() => undefined)
    : undefined
  const bundles = !!sendCalls && !!capabilities
  const sessionId = parameters.session.paymentSessionId
  const call = { to: token.address, data: encodeTransfer(to, amount) }
  // Never twice across pages: one page at a time holds the session's lock from reading the
  // record to the wallet's answer (utils/paymentLock.ts).
  let record!: PaymentRecord
  let hash = await withPaymentLock(sessionId, async (): Promise<Hex | undefined> => {
    record = startPaymentRecord(config, sessionId, payment)
    parameters.onPrompt?.()
    try {
      if (bundles) return await sendCalls(config, { account, chainId, call, capabilities })
      // The wallet's client checks it is still connected with this account, on this chain.
      const wallet = await getConnectorClient(config.wagmiConfig, { chainId, account })
      // viem's sendTransaction also carries the local-account path (fees, nonce, signing), which
      // a wallet never runs. No retry: a second try could be a second payment.
      return await wallet.request(
        {
          method: 'eth_sendTransaction',
          params: [{ from: account, ...call, chainId: numberToHex(chainId) }],
        },
        { retryCount: 0 },
      )
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
  const sent = hash && !bundles ? await findSent(config, client, hash) : undefined
  const onChain = !!hash && (bundles || !!sent)
  if (!onChain) {
    record = { ...record, state: 'awaitingWallet' }
    writePaymentRecord(config.storage, record)
    parameters.onAwaitingWallet?.()
    hash = await waitForTransfer(client, {
      payment: { token: token.address, from: account, to, fromBlock: payment.fromBlock },
      pollingInterval: client.pollingInterval,
      clock: config.polling.clock,
      signal: parameters.signal,
    })
  }
  return followPayment(config, parameters, payment, record, hash!, sent)
}

// A hash a node knows (pending or mined), with its nonce; undefined when it is not a transaction.
// A node behind the wallet's may need a moment: three looks, a polling interval apart.
async function findSent(config: PaySessionConfig, client: Client, hash: Hex) {
  let looks = 0
  const found = await poll(config.polling, {
    // A node that fails to answer does not disprove the hash.
    read: () =>
      getTransaction(client, { hash }).then(
        ({ nonce }) => ({ nonce }),
        (error) => (error instanceof TransactionNotFoundError ? undefined : {}),
      ),
    until: (sent) => !!sent || ++looks === 3,
  })
  return found
}
