import type { CheckoutStep } from '@paysession/core'

export type PaySessionStepChangeEventDetail = {
  step: CheckoutStep
  previousStep: CheckoutStep | undefined
}
/**
 * The checkout moved to another step (the screen the customer sees).
 * @example el.addEventListener('paysession-step-change', (event) => console.log(event.detail))
 */
export class PaySessionStepChangeEvent extends CustomEvent<PaySessionStepChangeEventDetail> {
  constructor(detail: PaySessionStepChangeEventDetail) {
    super('paysession-step-change', { bubbles: true, composed: true, detail })
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'paysession-step-change': PaySessionStepChangeEvent
  }
}
