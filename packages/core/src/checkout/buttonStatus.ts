import { isPaidStatus, type PaySessionErrorCode, type SessionStatus } from '@paysession/protocol'
import type { CheckoutStep } from './types.js'

// What the pay button says. A module of its own, apart from the machine and its step groups: the
// widget's first file carries these lines and nothing else of the checkout.

/**
 * What the pay button says: its word in the widget's catalog (`pay` takes the amount). A refused
 * token (`untrackedButton`) says nothing about the payment: the dialog tells what is known.
 */
export type ButtonStatus =
  | 'payLoading'
  | 'pay'
  | 'inProgress'
  | 'paid'
  | 'expiredButton'
  | 'unavailable'
  | 'untrackedButton'

export type ButtonStatusParameters = {
  /** The checkout's step, once the checkout runs; before, the button knows only its own read. */
  step?: CheckoutStep | undefined
  /** The session as last read. */
  session?: { status: SessionStatus; userSubmittedTransactionHash?: string | null | undefined }
  /** The code of the error showing (or of the button's failed read). */
  errorCode?: PaySessionErrorCode | undefined
  /** The failed read left nothing to show (not a refused token, which says nothing). */
  unavailable?: boolean | undefined
  /** Once the checkout runs: its step is in flight (`isInFlight`), a payment may be on its way. */
  inFlight?: boolean | undefined
  /** Before the checkout runs: this browser recorded a payment as started. */
  started?: boolean | undefined
  /** The amount can be written out (the formatter is loaded). */
  priced: boolean
}

/** What the pay button says, from the checkout's step once it runs, else the button's own read. */
export function buttonStatus(p: ButtonStatusParameters): ButtonStatus {
  const { step, session } = p
  // Not this order's payment (checked before anything else is shown): never "paid", never "pay".
  if (p.errorCode === 'SESSION_MISMATCH') return 'unavailable'
  if (step === 'untracked') return 'untrackedButton'
  if (step === 'paid' || (session && isPaidStatus(session.status))) return 'paid'
  if (!session) {
    if (step === 'expired') return 'expiredButton'
    return p.unavailable || step === 'failed' ? 'unavailable' : 'payLoading'
  }
  if (session.status === 'CANCELED' || step === 'expired') return 'expiredButton'
  const paying = step ? p.inFlight : p.started || session.userSubmittedTransactionHash
  if (paying) return 'inProgress'
  return p.priced ? 'pay' : 'payLoading'
}
