import type { SessionStatus } from '@paysession/core'

export type PaySessionStatusChangeEventDetail = {
  status: SessionStatus
  previousStatus: SessionStatus | undefined
}
/**
 * The session's service status changed (CREATED, PENDING, FUNDED, CAPTURING, SUCCEEDED, CANCELED, ERROR).
 * @example el.addEventListener('paysession-status-change', (event) => console.log(event.detail))
 */
export class PaySessionStatusChangeEvent extends CustomEvent<PaySessionStatusChangeEventDetail> {
  constructor(detail: PaySessionStatusChangeEventDetail) {
    super('paysession-status-change', { bubbles: true, composed: true, detail })
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'paysession-status-change': PaySessionStatusChangeEvent
  }
}
