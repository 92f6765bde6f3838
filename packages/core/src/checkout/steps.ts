import type { CheckoutStep } from './types.js'

// Its own tiny module: the widget's first file reads it for the pay button, and a shared module
// is bundled into that file whole (transition.ts is the dialog's).

/** Steps in which a payment may be on its way: the customer is told so, and it is not offered again. */
export const inFlightSteps: readonly CheckoutStep[] = [
  'confirmInWallet',
  'waitingForWallet',
  'submitted',
  'confirming',
  'waitingForService',
]

export const isInFlight = (step: CheckoutStep | undefined): boolean =>
  !!step && inFlightSteps.includes(step)
