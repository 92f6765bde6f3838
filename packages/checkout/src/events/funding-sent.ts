export type PaySessionFundingSentEventDetail = {
  hash: `0x${string}`
  explorerTxUrl: string | undefined
}
/**
 * This page's wallet prompt sent the funding transfer; `hash` is its transaction hash. Not fired
 * for a transfer sent elsewhere (another tab, a reload, a phone wallet after the QR code).
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
