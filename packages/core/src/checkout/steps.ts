import { isPaidStatus, type PaySessionErrorCode, type SessionStatus } from '@paysession/protocol'
import type { CheckoutStep } from './types.js'

// The checkout's steps in the groups a UI needs, and what a pay button says: the machine's
// vocabulary (transition.ts uses these groups and re-exports them). A module of its own, apart from
// the transition, because the widget's first file needs these few lines and none of the machine.

/** Whether `step` is one of `group`'s steps (and narrows it to them). */
export const isStepIn = <S extends CheckoutStep>(
  group: readonly S[],
  step: CheckoutStep | undefined,
): step is S => !!step && (group as readonly CheckoutStep[]).includes(step)

/** Steps in which a payment may be on its way: the customer is told so, and it is not offered again. */
export const inFlightSteps = [
  'confirmInWallet',
  'waitingForWallet',
  'submitted',
  'confirming',
  'waitingForService',
] as const satisfies readonly CheckoutStep[]
export type InFlightStep = (typeof inFlightSteps)[number]

export const isInFlight = (step: CheckoutStep | undefined): step is InFlightStep =>
  isStepIn(inFlightSteps, step)

/**
 * Steps that offer the payment (again): the customer may pick a wallet, a token, or pay
 * manually. An error seen before is about an earlier attempt there.
 */
export const offerSteps = [
  'chooseWallet',
  'chooseToken',
  'review',
] as const satisfies readonly CheckoutStep[]
export type OfferStep = (typeof offerSteps)[number]

/** Steps a UI must keep showing: a wallet prompt is open, or the hash is being reported. */
export const lockedSteps = [
  'connecting',
  'confirmInWallet',
  'submitted',
] as const satisfies readonly CheckoutStep[]
export type LockedStep = (typeof lockedSteps)[number]

/** Steps in which the session is paid (the service saw the funds). */
export const paidSteps = ['paid', 'completed'] as const satisfies readonly CheckoutStep[]
export type PaidStep = (typeof paidSteps)[number]

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
  const paying = step
    ? isInFlight(step)
    : !!p.started || Boolean(session.userSubmittedTransactionHash)
  if (paying) return 'inProgress'
  return p.priced ? 'pay' : 'payLoading'
}
