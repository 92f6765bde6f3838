import { getClient, getConnection, switchChain } from '@wagmi/core'
import { type Address, type Client, getAddress, isAddress, zeroAddress } from 'viem'
import { getBlock } from 'viem/actions'
import type { PaymentSession } from '../api/session.js'
import { checkToken, type TokenFacts } from '../chain/checkToken.js'
import { getTokenBalance } from '../chain/erc20.js'
import { checkTokenControls } from '../chain/tokenControls.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import { chainUnavailable } from '../errors/chain.js'
import { resolveSessionAssets } from '../registry/registry.js'
import type { NetworkInfo, StablecoinInfo } from '../registry/types.js'
import { parseAmount } from '../utils/amounts.js'
import { checkExpectedPayment, type ExpectedPayment } from '../utils/expectedPayment.js'
import {
  type PaymentRecord,
  readPaymentRecord,
  writePaymentRecord,
} from '../utils/paymentRecord.js'
import { isPaidStatus } from '../utils/status.js'

// What every way of paying (payWithWallet, payWithAuthorization) does before the wallet prompt.

/** What a payment pays, checked before any prompt opens: the wallet is on the right network. */
/** The checks before the prompt: each refuses the payment before anything is sent. */
export type PreparePaymentErrorCode =
  | 'ALREADY_PAID'
  | 'SESSION_EXPIRED'
  | 'SESSION_FAILED'
  | 'SESSION_MISMATCH'
  | 'UNSUPPORTED_NETWORK'
  | 'UNSUPPORTED_TOKEN'
  | 'INVALID_ADDRESS'
  | 'INVALID_AMOUNT'
  | 'WALLET_NOT_CONNECTED'
  | 'WRONG_NETWORK'
  | 'CHAIN_UNAVAILABLE'
  | 'INSUFFICIENT_BALANCE'
  | 'TOKEN_PAUSED'
  | 'PAYER_BLOCKED'
  | 'RECIPIENT_BLOCKED'
  | 'PAYMENT_IN_PROGRESS'
export type PreparePaymentErrorType = PaySessionError<PreparePaymentErrorCode>

export type PreparedPayment = {
  network: NetworkInfo
  token: StablecoinInfo
  to: Address
  amount: bigint
  account: Address
  client: Client
  fromBlock: bigint
  /** The latest block's timestamp (s), when the balance was read. */
  now: bigint
  /** The token as the chain has it (decimals checked; the EIP-712 domain for EIP-3009). */
  facts: TokenFacts
}

/**
 * Checks first (session payable and the order the page expects, token known, OTW address valid,
 * right network, the token's decimals on chain, the token neither paused nor blacklisting the
 * payer or the one-time wallet, enough balance): shared by every way of paying.
 */
export async function preparePayment(
  config: PaySessionConfig,
  parameters: { session: PaymentSession; token: string } & ExpectedPayment,
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
  let block: { number: bigint; timestamp: bigint }
  let facts: TokenFacts
  try {
    // The token check is the offer's, done by now (cached): it adds no round trip here.
    ;[balance, block, facts] = await Promise.all([
      getTokenBalance(client, token.address, account),
      getBlock(client),
      checkToken(client, network, token),
      checkTokenControls(client, token, account, to),
    ])
  } catch (error) {
    if (error instanceof PaySessionError) throw error
    throw chainUnavailable(config, network, error)
  }
  if (balance < amount)
    throw new PaySessionError('INSUFFICIENT_BALANCE', {
      details: `${token.symbol} balance ${balance} < ${amount}`,
    })
  return {
    network,
    token,
    to,
    amount,
    account,
    client,
    fromBlock: block.number,
    now: block.timestamp,
    facts,
  }
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
    createdAt: config.polling.clock.now(),
    ...(validBefore === undefined ? {} : { validBefore: validBefore.toString() }),
  }
  writePaymentRecord(config.storage, record)
  return record
}
