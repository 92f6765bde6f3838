import type { PaidStatus } from '@paysession/core'

export type PaySessionPaidEventDetail = {
  sessionId: string
  /** The session's status when it was found paid (FUNDED when only the chain showed it). */
  status: PaidStatus
  amount: string | undefined
  tokenSymbol: string | undefined
  hash: `0x${string}` | undefined
  /** The session was already paid when this page loaded it (a reload, a second tab). */
  replay: boolean
}
/**
 * The session is paid (FUNDED or later): safe to show the order as paid, confirm it on your server.
 * Fired once per page load; `detail.replay` is true when the session was already paid at load.
 * @example el.addEventListener('paysession-paid', (event) => console.log(event.detail))
 */
export class PaySessionPaidEvent extends CustomEvent<PaySessionPaidEventDetail> {
  constructor(detail: PaySessionPaidEventDetail) {
    super('paysession-paid', { bubbles: true, composed: true, detail })
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'paysession-paid': PaySessionPaidEvent
  }
}
