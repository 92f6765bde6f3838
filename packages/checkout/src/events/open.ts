export type PaySessionOpenEventDetail = { sessionId: string }
/**
 * The checkout dialog opened.
 * @example el.addEventListener('paysession-open', (event) => console.log(event.detail))
 */
export class PaySessionOpenEvent extends CustomEvent<PaySessionOpenEventDetail> {
  constructor(detail: PaySessionOpenEventDetail) {
    super('paysession-open', { bubbles: true, composed: true, detail })
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'paysession-open': PaySessionOpenEvent
  }
}
