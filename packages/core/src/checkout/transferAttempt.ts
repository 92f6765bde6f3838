import { getConnection } from '@wagmi/core'
import { checkPreviousPayment } from '../actions/checkPreviousPayment.js'
import type { PayWithWalletParameters, PayWithWalletReturnType } from '../actions/payWithWallet.js'
import { preparePayment } from '../actions/preparePayment.js'
import type { PaymentSession } from '../api/session.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { isTokenRefused } from '../errors/api.js'
import type { PaySessionError } from '../errors/base.js'
import { readPaymentRecord } from '../utils/paymentRecord.js'
import { asError, type CheckoutHandle } from './handle.js'

// One payment attempt of a path that sends a transfer (the wallet's, gasless): what every such
// path runs around its own action, so that none of them can pay twice.

/** A path's action: sends the transfer and follows it until mined, as `payWithWallet` does. */
export type TransferSender = (
  config: PaySessionConfig,
  parameters: PayWithWalletParameters,
) => Promise<PayWithWalletReturnType>

/**
 * Pays the selected token by `path`'s action. Never twice: the freshest status and the chain
 * decide before any prompt opens; a payment found in flight is followed instead. `early`: the
 * chain's checks start beside the status read, in the same round trip.
 */
export async function transferAttempt(
  handle: CheckoutHandle,
  path: string,
  send: TransferSender,
  { early: checksEarly = false } = {},
): Promise<void> {
  const { session, dispatch } = handle
  const selected = session.getState().selectedToken
  if (!selected) return
  // Which steps allow paying (one attempt at a time) is the transition's answer (`canPay`).
  if (!dispatch({ type: 'pay', path }, { error: undefined, canRetry: false })) return
  const { config, staleAfter } = session
  const { expectedAmount, expectedCurrency } = handle.settings
  try {
    // The chain is asked about the session the review shows while its status is read; a
    // session that changed in what those checks read is asked about again.
    const shown = session.getState().session
    const early = shown && checksEarly ? checkEarly(handle, shown, selected) : undefined
    const fresh = await handle.readSession()
    if (session.settled) return
    const same = early && sameChecks(shown!, fresh)
    const previous = await (same
      ? early.previous
      : checkPreviousPayment(config, { session: fresh, staleAfter }))
    if (previous.kind !== 'none') return await handle.resume(previous)
    const paid = await send(config, {
      session: fresh,
      sessionToken: session.token.current,
      token: selected,
      expectedAmount,
      expectedCurrency,
      signal: session.signal,
      prepared: same ? early.prepared : undefined,
      onAwaitingWallet: () => {
        dispatch({ type: 'walletAccepted' })
      },
      onHash: (hash) => {
        dispatch({ type: 'hash' }, { hash, explorerTxUrl: session.explorerTxUrl(hash) })
      },
      onReported: () => {
        dispatch({ type: 'reported' })
        session.refresh()
      },
    })
    dispatch({ type: 'mined' })
    void session.askServiceToSettle(paid.hash)
  } catch (error) {
    if (!session.settled) onPayError(handle, asError(error))
  } finally {
    dispatch({ type: 'payEnded' })
  }
}

/**
 * The chain's checks of a payment of `session` in `token`: whether it was paid already
 * (checkPreviousPayment) and the payer's side (preparePayment: balance, block). Not on a wallet
 * on another network, whose switch prompt waits for the fresh status.
 */
function checkEarly(handle: CheckoutHandle, session: PaymentSession, token: string) {
  const { config, staleAfter } = handle.session
  if (getConnection(config.wagmiConfig).chainId !== handle.session.getState().network?.chainId)
    return
  const { expectedAmount, expectedCurrency } = handle.settings
  const early = {
    previous: checkPreviousPayment(config, { session, staleAfter }),
    prepared: preparePayment(config, { session, token, expectedAmount, expectedCurrency }),
  }
  // Awaited only when the fresh status agrees: a failure before then is not unhandled.
  early.previous.catch(() => {})
  early.prepared.catch(() => {})
  return early
}

function onPayError(handle: CheckoutHandle, error: PaySessionError) {
  const { session } = handle
  if (error.code === 'SESSION_EXPIRED' || isTokenRefused(error)) return session.fail(error, false)
  const { storage } = session.config
  if (error.code === 'PAYMENT_IN_PROGRESS')
    // Another tab recorded its prompt between our check and our record.
    return handle.recover(
      (recovery) => recovery.waitForPrompt(handle, readPaymentRecord(storage, session.sessionId)),
      error,
    )
  // The record written before the prompt says whether anything may have left.
  const recorded = !!readPaymentRecord(storage, session.sessionId)
  const canRetry = ![
    'INSUFFICIENT_BALANCE',
    'WALLET_NOT_CONNECTED',
    'INVALID_CONFIG',
    'PAYER_BLOCKED',
    'RECIPIENT_BLOCKED',
  ].includes(error.code)
  handle.dispatch(
    { type: 'payFailed', code: error.code, recorded, hash: !!session.getState().hash },
    { error, canRetry },
  )
  // Back to the token choice (transition.ts): its balances read again, the error kept.
  if (
    ['INSUFFICIENT_BALANCE', 'TOKEN_PAUSED', 'PAYER_BLOCKED', 'RECIPIENT_BLOCKED'].includes(
      error.code,
    )
  )
    void handle.loadTokens().then(
      () => handle.set({ error }),
      () => {},
    )
}

/** What the payment's chain checks read of a session: equal, their answers hold for both. */
const checkedFields = [
  'status',
  'amount',
  'currency',
  'network',
  'tokenSymbol',
  'acceptedTokens',
  'oneTimeWalletAddress',
  'userSubmittedTransactionHash',
  'fundingTransactionHash',
] as const
function sameChecks(a: PaymentSession, b: PaymentSession): boolean {
  return checkedFields.every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]))
}
