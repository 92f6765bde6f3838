export type PaySessionTokenSelectedEventDetail = { symbol: string }
/**
 * The customer chose the stablecoin to pay with.
 * @example el.addEventListener('paysession-token-selected', (event) => console.log(event.detail))
 */
export class PaySessionTokenSelectedEvent extends CustomEvent<PaySessionTokenSelectedEventDetail> {
  constructor(detail: PaySessionTokenSelectedEventDetail) {
    super('paysession-token-selected', { bubbles: true, composed: true, detail })
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'paysession-token-selected': PaySessionTokenSelectedEvent
  }
}
