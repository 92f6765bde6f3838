import type { CheckoutStep } from './types.js'

// The checkout's steps in the groups a UI needs: the machine's vocabulary (transition.ts uses
// these groups and re-exports them, with what the pay button says from buttonStatus.ts).

/** Whether `step` is one of `group`'s steps (and narrows it to them). */
export const isStepIn = <S extends CheckoutStep>(
  group: readonly S[],
  step: CheckoutStep | undefined,
): step is S => (group as readonly (CheckoutStep | undefined)[]).includes(step)

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
