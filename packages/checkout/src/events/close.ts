import type { CheckoutStep } from '@paysession/core'

export type PaySessionCloseEventDetail = { sessionId: string; step: CheckoutStep | undefined }
/**
 * The checkout dialog closed.
 * @example el.addEventListener('paysession-close', (event) => console.log(event.detail))
 */
export class PaySessionCloseEvent extends CustomEvent<PaySessionCloseEventDetail> {
  constructor(detail: PaySessionCloseEventDetail) {
    super('paysession-close', { bubbles: true, composed: true, detail })
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'paysession-close': PaySessionCloseEvent
  }
}
