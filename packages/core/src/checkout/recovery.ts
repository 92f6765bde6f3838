import { getClient } from '@wagmi/core'
import type { Hex } from 'viem'
import {
  checkPreviousPayment,
  defaultStaleAfter,
  type PreviousPayment,
} from '../actions/checkPreviousPayment.js'
import { reportFunding } from '../actions/reportFunding.js'
import { waitForOneTimeWalletFunding } from '../actions/waitForOneTimeWalletFunding.js'
import { waitForPaymentReceipt, waitForTransfer } from '../chain/waitForPaymentReceipt.js'
import { isPaySessionError, PaySessionError } from '../errors/base.js'
import {
  clearPaymentRecord,
  type PaymentRecord,
  writePaymentRecord,
} from '../utils/paymentRecord.js'
import { poll } from '../utils/poll.js'
import { readSessionFacts, type SessionFacts } from '../utils/sessionFacts.js'
import { asError, type CheckoutHandle } from './handle.js'

// The checkout session's paths off the usual payment (`@paysession/core/recovery`), which the
// session loads only when one is taken: a payment left in flight (a reload, another tab, a wallet
// that sends later) and a session token the service refuses. Each works on the session itself
// (its state, its token, its polling) through the handle the session hands it. Every new payment still passes checkPreviousPayment, the
// session's lock and its record (actions/payWithWallet.ts) whatever loads when: loading this
// module late never lets a second payment start.

/** A payment found in flight: follow it to its end instead of offering another one. */
export function resume(checkout: CheckoutHandle, previous: PreviousPayment): Promise<void> | void {
  if (previous.kind !== 'inFlight') return
  if (previous.reason === 'walletPending') return awaitWallet(checkout, previous.record!)
  const hash = previous.hash
  if (hash) checkout.set({ hash, explorerTxUrl: checkout.session.explorerTxUrl(hash) })
  if (previous.reason === 'prompting') return waitForPrompt(checkout, previous.record)
  checkout.dispatch(
    { type: 'previous', reason: previous.reason },
    { error: undefined, canRetry: false, retryAt: undefined },
  )
  if (hash) {
    const { config, sessionId } = checkout.session
    // Idempotent: the service may not have heard of it if the page closed right after sending.
    checkout.session.token
      .use((sessionToken) => reportFunding(config, { sessionId, sessionToken, hash }))
      .catch(() => {})
    if (previous.reason === 'hashPending') void followHash(checkout, hash, previous.record)
  }
}

/** The wallet accepted the payment and will send it (a multisig, a bundler): follow the chain. */
function awaitWallet(checkout: CheckoutHandle, record: PaymentRecord) {
  checkout.dispatch(
    { type: 'previous', reason: 'walletPending' },
    { error: undefined, canRetry: false },
  )
  const client = getClient(checkout.session.config.wagmiConfig, {
    chainId: checkout.session.network.chainId,
  })!
  waitForTransfer(client, {
    payment: {
      token: record.tokenAddress,
      from: record.from,
      to: record.to,
      fromBlock: BigInt(record.fromBlock),
    },
    pollingInterval: client.pollingInterval,
    clock: checkout.session.config.polling.clock,
    signal: checkout.session.signal,
  }).then(
    (hash) => {
      const submitted: PaymentRecord = { ...record, state: 'submitted', hash }
      writePaymentRecord(checkout.session.config.storage, submitted)
      if (!checkout.session.settled)
        resume(checkout, { kind: 'inFlight', reason: 'hashPending', hash, record: submitted })
    },
    () => {},
  )
}

/**
 * A wallet prompt this checkout opened (before a reload, or in another tab) may still be
 * answered: a second payment must wait. Not an error: the page says so and when the customer
 * can pay again (`retryAt`), watches the service (polling) and the chain (the recorded payer's
 * transfer), and offers the payment again by itself when the time comes.
 */
export async function waitForPrompt(
  checkout: CheckoutHandle,
  record: PaymentRecord | undefined,
): Promise<void> {
  const { config, staleAfter } = checkout.session
  const { clock } = config.polling
  const retryAt = (record?.createdAt ?? clock.now()) + (staleAfter ?? defaultStaleAfter)
  checkout.dispatch(
    { type: 'previous', reason: 'prompting' },
    { error: undefined, canRetry: false, retryAt },
  )
  const waiting = () =>
    !checkout.session.destroyed &&
    !checkout.session.settled &&
    checkout.session.getState().retryAt === retryAt
  const stillPrompting = (previous: PreviousPayment) =>
    previous.kind === 'inFlight' && previous.reason === 'prompting'
  let previous: PreviousPayment | 'left' | undefined
  // Read until the prompt is answered, and once more when it may no longer be (`retryAt`).
  while (waiting() && !previous)
    previous = await poll(config.polling, {
      read: async () => {
        const session = checkout.session.getState().session
        if (!waiting() || !session) return 'left' as const
        return checkPreviousPayment(config, { session, staleAfter })
      },
      until: (read) => read === 'left' || !stillPrompting(read),
      signal: checkout.session.signal,
      deadline: clock.now() < retryAt ? retryAt : undefined,
    })
  if (!previous || previous === 'left' || !waiting()) return
  if (previous.kind !== 'none') {
    checkout.set({ retryAt: undefined })
    return resume(checkout, previous)
  }
  // Out of the in-flight step first: the token choice is not shown over a payment in flight.
  checkout.dispatch({ type: 'nothingPending' })
  checkout.dispatch({ type: 'load' }, { retryAt: undefined })
  return checkout.session
    .offerPayment()
    .catch((error) => checkout.session.fail(asError(error), true))
}

async function followHash(checkout: CheckoutHandle, hash: Hex, record: PaymentRecord | undefined) {
  const { config, sessionId } = checkout.session
  try {
    const client = getClient(config.wagmiConfig, { chainId: checkout.session.network.chainId })!
    const receipt = await waitForPaymentReceipt(client, {
      hash,
      // Our own payment (not one the service heard of from elsewhere): follow a replacement.
      payment:
        record?.hash === hash
          ? {
              token: record.tokenAddress,
              from: record.from,
              to: record.to,
              fromBlock: BigInt(record.fromBlock),
            }
          : undefined,
      confirmations: config.confirmations,
      pollingInterval: client.pollingInterval,
      clock: config.polling.clock,
      signal: checkout.session.signal,
      onReplaced: (next) => {
        if (record)
          writePaymentRecord(config.storage, { ...record, state: 'submitted', hash: next })
        checkout.set({ hash: next, explorerTxUrl: checkout.session.explorerTxUrl(next) })
        checkout.session.token
          .use((sessionToken) => reportFunding(config, { sessionId, sessionToken, hash: next }))
          .catch(() => {})
      },
    })
    if (checkout.session.settled) return
    if (receipt.status === 'success') {
      checkout.dispatch({ type: 'mined' })
      void checkout.session.askServiceToSettle(receipt.transactionHash)
    } else {
      clearPaymentRecord(config.storage, sessionId)
      checkout.dispatch(
        { type: 'transferFailed' },
        { error: new PaySessionError('TRANSACTION_FAILED'), canRetry: true },
      )
    }
  } catch (error) {
    if (checkout.session.destroyed || checkout.session.settled) return
    if (isPaySessionError(error, 'TRANSFER_MISMATCH')) {
      // Replaced by a transaction that pays nothing: the chain allows a new payment.
      clearPaymentRecord(config.storage, sessionId)
      checkout.dispatch({ type: 'transferFailed' }, { error, canRetry: true })
    } else
      checkout.dispatch(
        { type: 'retryByLoading' },
        {
          error: new PaySessionError('CHAIN_UNAVAILABLE', {
            details: `waiting for ${hash}`,
            cause: error,
          }),
          canRetry: true,
        },
      )
  }
}

/**
 * The service refuses this page's token and no fresh one came: this page can no longer follow
 * the session there. It says so (never "expired": the session may well be payable or paid),
 * and reads the one-time wallet on chain until it holds the amount or the funding window ends.
 * A token refused before anything was known is a link that is not valid.
 */
export function untrack(checkout: CheckoutHandle, error: PaySessionError) {
  checkout.session.stopWatching()
  const state = checkout.session.getState()
  const facts =
    state.session ?? readSessionFacts(checkout.session.config.storage, checkout.session.sessionId)
  const known = !!facts || error.code === 'SESSION_TOKEN_EXPIRED'
  // A customer paying by hand keeps the address (the step stays): the chain is followed behind it.
  checkout.dispatch(
    { type: 'tokenRefused', known },
    !known || state.step !== 'manual'
      ? {
          error,
          canRetry: checkout.session.token.renewable,
          ...(known ? { amount: facts?.amount } : {}),
        }
      : {},
  )
  if (!known) return
  if (facts) void followOnChain(checkout, facts)
}

/** Checkouts following their one-time wallet on chain: one follower each. */
const followingChain = new WeakSet<CheckoutHandle>()

async function followOnChain(checkout: CheckoutHandle, facts: SessionFacts) {
  if (followingChain.has(checkout)) return
  followingChain.add(checkout)
  const follower = new AbortController()
  const stop = () => follower.abort()
  checkout.session.signal.addEventListener('abort', stop)
  const stopWhenLeft = checkout.session.subscribe((next) => {
    if (next.step !== 'untracked' && next.step !== 'manual') stop()
  })
  try {
    const result = await waitForOneTimeWalletFunding(checkout.session.config, {
      session: facts,
      signal: follower.signal,
    })
    // The paid screen names the token that arrived, as the service will once it sees it.
    if (result.outcome === 'received') {
      const session = checkout.session.getState().session
      checkout.dispatch(
        { type: 'chainFunded' },
        {
          error: undefined,
          canRetry: false,
          session: session && { ...session, tokenSymbol: result.token },
        },
      )
    }
    // Unfunded when the window closes: the spec cancels the session then.
    if (result.outcome === 'windowClosed')
      checkout.dispatch(
        { type: 'windowClosed' },
        { error: new PaySessionError('SESSION_EXPIRED'), canRetry: false },
      )
  } finally {
    stopWhenLeft()
    checkout.session.signal.removeEventListener('abort', stop)
    followingChain.delete(checkout)
  }
}
