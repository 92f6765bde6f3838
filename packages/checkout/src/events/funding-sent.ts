export type PaySessionFundingSentEventDetail = {
  hash: `0x${string}`
  explorerTxUrl: string | undefined
}
/**
 * The wallet sent the funding transfer; `hash` is its transaction hash.
 * @example el.addEventListener('paysession-funding-sent', (event) => console.log(event.detail))
 */
export class PaySessionFundingSentEvent extends CustomEvent<PaySessionFundingSentEventDetail> {
  constructor(detail: PaySessionFundingSentEventDetail) {
    super('paysession-funding-sent', { bubbles: true, composed: true, detail })
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'paysession-funding-sent': PaySessionFundingSentEvent
  }
}
