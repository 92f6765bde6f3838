import type { PaymentSession } from '../api/session.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import { isTransactionHash } from '../utils/isTransactionHash.js'
import { clearPaymentRecord } from '../utils/paymentRecord.js'
import { writeSessionFacts } from '../utils/sessionFacts.js'
import { isSettled } from '../utils/status.js'
import type { CheckoutHandle, CheckoutSettings } from './handle.js'
import { statusStep } from './transition.js'

// The session's news: what each read of the service (a poll, a read of our own, the page's own
// read) changes in the checkout session.

/** A read of the session taken in: its facts kept for a reload, and the step its status decides. */
export function takeSession(handle: CheckoutHandle, session: PaymentSession): void {
  const { config, sessionId } = handle.session
  writeSessionFacts(config.storage, session)
  handle.set({ session, amount: session.amount })
  const step = statusStep(session.status)
  if (!step) return
  if (isSettled(session)) clearPaymentRecord(config.storage, sessionId)
  const code =
    step === 'expired' ? 'SESSION_EXPIRED' : step === 'failed' ? 'SESSION_FAILED' : undefined
  // Paid: show the transaction the service saw fund the session, which is the replacement when
  // the wallet sped the transfer up, even if the service says so before the receipt wait does.
  const funding = session.fundingTransactionHash
  const funded =
    (step === 'paid' || step === 'completed') && isTransactionHash(funding)
      ? { hash: funding, explorerTxUrl: handle.session.explorerTxUrl(funding) }
      : {}
  handle.dispatch(
    { type: 'session', status: session.status },
    { error: code && new PaySessionError(code), canRetry: false, ...funded },
  )
}

/** The page's own read of the session, if still as fresh as a poll's (`initialSession`). */
export function initialSession(
  config: PaySessionConfig,
  { sessionId, initialSession: session, initialSessionUpdatedAt: at = 0 }: CheckoutSettings,
): PaymentSession | undefined {
  const { clock, interval } = config.polling
  const age = clock.now() - at
  return session?.paymentSessionId === sessionId && age >= 0 && age <= interval
    ? session
    : undefined
}
