import type { SessionStatus } from '@paysession/core'

export type PaySessionReadyEventDetail = {
  sessionId: string
  status: SessionStatus
  amount: string
  currency: string | undefined
}
/**
 * The session is loaded and the button shows its amount (or its paid / in-progress state).
 * @example el.addEventListener('paysession-ready', (event) => console.log(event.detail))
 */
export class PaySessionReadyEvent extends CustomEvent<PaySessionReadyEventDetail> {
  constructor(detail: PaySessionReadyEventDetail) {
    super('paysession-ready', { bubbles: true, composed: true, detail })
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'paysession-ready': PaySessionReadyEvent
  }
}
