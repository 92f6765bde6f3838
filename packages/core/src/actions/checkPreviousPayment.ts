import { getClient } from '@wagmi/core'
import { type Hex, isAddress, type TransactionReceipt } from 'viem'
import { getTransaction, getTransactionReceipt } from 'viem/actions'
import type { PaymentSession } from '../api/session.js'
import { getTokenBalance, parseTransfers } from '../chain/erc20.js'
import { findTransfers } from '../chain/findTransfers.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import { chainUnavailable } from '../errors/chain.js'
import { resolveSessionAssets } from '../registry/registry.js'
import type { StablecoinInfo } from '../registry/types.js'
import { isTransactionHash } from '../utils/isTransactionHash.js'
import {
  clearPaymentRecord,
  type PaymentRecord,
  readPaymentRecord,
  writePaymentRecord,
} from '../utils/paymentRecord.js'
import { isPaidStatus } from '../utils/status.js'

/** How long a recorded wallet prompt with nothing on chain blocks a new payment, by default (ms). */
export const defaultStaleAfter = 120_000

export type CheckPreviousPaymentParameters = {
  session: PaymentSession
  /** A record with no hash and nothing on chain older than this (ms) is abandoned. Default 120 s. */
  staleAfter?: number | undefined
}
export type PreviousPayment =
  | { kind: 'none' }
  | { kind: 'paid' }
  | {
      kind: 'inFlight'
      /** Why a new payment is not allowed. */
      reason:
        | 'hashPending'
        | 'hashMined'
        | 'transferFound'
        | 'otwFunded'
        | 'prompting'
        | 'walletPending'
      hash?: Hex | undefined
      record?: PaymentRecord | undefined
    }
export type CheckPreviousPaymentReturnType = PreviousPayment

export type CheckPreviousPaymentErrorType = PaySessionError<
  'UNSUPPORTED_NETWORK' | 'CHAIN_UNAVAILABLE'
>

/**
 * "Never twice": decides whether this session may be paid now. Checks the session status, the
 * recorded and reported hashes, the transfers to the one-time wallet since the recorded prompt,
 * and the one-time wallet's balance. Only `{ kind: 'none' }` allows a new payment.
 * @example if ((await checkPreviousPayment(config, { session })).kind === 'none') offerPayment()
 */
export async function checkPreviousPayment(
  config: PaySessionConfig,
  parameters: CheckPreviousPaymentParameters,
): Promise<CheckPreviousPaymentReturnType> {
  const { session, staleAfter = defaultStaleAfter } = parameters
  const sessionId = session.paymentSessionId
  if (isPaidStatus(session.status)) return { kind: 'paid' }

  const { network, tokens } = resolveSessionAssets(config.registry, session)
  const client = getClient(config.wagmiConfig, { chainId: network.chainId })
  if (!client) throw new PaySessionError('UNSUPPORTED_NETWORK', { details: network.name })
  let record = readPaymentRecord(config.storage, sessionId)
  const otw = session.oneTimeWalletAddress
  try {
    // 1. Hashes we know of: ours, or one the service was told (maybe by another device).
    const hashes = [
      record?.hash,
      session.userSubmittedTransactionHash,
      session.fundingTransactionHash,
    ]
    for (const hash of new Set(hashes.filter(isTransactionHash))) {
      const receipt = await getTransactionReceipt(client, { hash }).catch(() => undefined)
      if (receipt?.status === 'success' && paysOneTimeWallet(receipt, otw, tokens))
        return { kind: 'inFlight', reason: 'hashMined', hash, record }
      if (receipt) {
        // Reverted, or mined without a transfer to the OTW in an accepted token: it did not pay
        // this session, so our record of it no longer blocks a payment.
        if (hash === record?.hash) {
          clearPaymentRecord(config.storage, sessionId)
          record = undefined
        }
        continue
      }
      const transaction = await getTransaction(client, { hash }).catch(() => undefined)
      if (transaction) return { kind: 'inFlight', reason: 'hashPending', hash, record }
    }

    // 2. A transfer from the recorded account to the OTW since the prompt opened.
    if (record && otw && isAddress(otw)) {
      const [transfer] = await findTransfers(client, {
        token: record.tokenAddress,
        from: record.from,
        to: otw,
        fromBlock: BigInt(record.fromBlock),
        first: true,
      })
      if (transfer) {
        record = { ...record, state: 'submitted', hash: transfer.transactionHash }
        writePaymentRecord(config.storage, record)
        return { kind: 'inFlight', reason: 'transferFound', hash: transfer.transactionHash, record }
      }
    }

    // 3. Funds already at the OTW, from anyone.
    if (otw && isAddress(otw)) {
      const balances = await Promise.all(
        tokens.map((token) => getTokenBalance(client, token.address, otw)),
      )
      if (balances.some((balance) => balance > 0n))
        return { kind: 'inFlight', reason: 'otwFunded', record }
    }
  } catch (error) {
    throw chainUnavailable(config, network, error)
  }

  // 4. The wallet accepted the payment and will send it, maybe days later (a multisig).
  if (record?.state === 'awaitingWallet')
    return { kind: 'inFlight', reason: 'walletPending', record }

  // 5. A wallet prompt that may still be open (another tab, or just before a reload). A record
  // whose prompt ended in an error, with nothing on chain (steps 1 to 3), no longer blocks. A
  // signed authorization blocks until it expires: a relay may still submit it.
  const now = config.polling.clock.now()
  if (
    record &&
    ((record.state !== 'ended' && now - record.createdAt < staleAfter) ||
      now / 1e3 < +(record.validBefore ?? 0))
  ) {
    return { kind: 'inFlight', reason: 'prompting', hash: record.hash, record }
  }
  if (record) clearPaymentRecord(config.storage, sessionId)
  return { kind: 'none' }
}

/** The receipt carries an ERC-20 Transfer to the one-time wallet in a token the session accepts. */
function paysOneTimeWallet(
  receipt: TransactionReceipt,
  otw: string | undefined,
  tokens: StablecoinInfo[],
): boolean {
  if (!otw || !isAddress(otw)) return false
  return tokens.some((token) =>
    parseTransfers(receipt.logs, { token: token.address, to: otw }).some(
      (log) => log.args.value > 0n,
    ),
  )
}
