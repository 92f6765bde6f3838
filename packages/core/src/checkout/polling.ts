import type { Hex } from 'viem'
import { reportFunding } from '../actions/reportFunding.js'
import { sessionQueryKey, watchSession } from '../actions/watchSession.js'
import type { PaymentSession } from '../api/session.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { isTokenRefused } from '../errors/api.js'
import { PaySessionError } from '../errors/base.js'
import { isTransactionHash } from '../utils/isTransactionHash.js'
import { clearPaymentRecord } from '../utils/paymentRecord.js'
import { writeSessionFacts } from '../utils/sessionFacts.js'
import { isSettled } from '../utils/status.js'
import type { CheckoutHandle, CheckoutSettings } from './handle.js'
import { statusStep } from './transition.js'

// The session's news: its polling through query-core (watchSession), and what each read of the
// service changes in the checkout session.

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

/**
 * Polls the session, each read taken in. A final error stops it (`stopped`): a refused token is
 * renewed once and polling starts again (`restart`), or the recovery module follows the chain.
 */
export function watchStatus(
  handle: CheckoutHandle,
  watch: { isActive: () => boolean; stopped: () => void; restart: () => void },
): () => void {
  const { config, sessionId, token } = handle.session
  const sessionToken = token.current
  // A query a stopped watcher left in error would stop the new watcher at its first result.
  config.queryClient.removeQueries({
    queryKey: sessionQueryKey(sessionId),
    predicate: (query) => query.state.status === 'error',
  })
  return watchSession(config, {
    sessionId,
    sessionToken,
    isActive: watch.isActive,
    onChange: (session) => takeSession(handle, session),
    onError: (error, final) => {
      if (!final || handle.session.settled) return
      watch.stopped()
      handle.dispatch({ type: 'retryByLoading' })
      if (!isTokenRefused(error)) return handle.session.fail(error, true)
      void token.renew(sessionToken).then((fresh) => {
        if (handle.session.destroyed || handle.session.settled) return
        if (fresh) watch.restart()
        else handle.recover((recovery) => recovery.untrack(handle, error), error)
      })
    },
  })
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

/**
 * The transfer is mined: report it once more with the spec's `wait` (idempotent), so the
 * service processes it now, then read the session at once rather than at the next poll. A
 * service that ignores `wait`, or fails, leaves it to polling.
 */
export async function askServiceToSettle(handle: CheckoutHandle, hash: Hex): Promise<void> {
  const { config, sessionId, token } = handle.session
  await token
    .use((sessionToken) => reportFunding(config, { sessionId, sessionToken, hash, wait: true }))
    .catch(() => {})
  // Paid shows from this read, never from the report's answer alone: the session as last
  // read may name another token or no customer yet, and paid tells the customer what they paid.
  handle.session.refresh()
}
