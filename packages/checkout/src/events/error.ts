import type { PaySessionErrorCode } from '@paysession/core'

export type PaySessionErrorEventDetail = {
  code: PaySessionErrorCode
  message: string
  retryable: boolean
  /** For the developer, not the customer: what failed and how to fix it (core's `details`). */
  details?: string | undefined
}
/**
 * An error the customer sees: `code` is core's stable PaySessionError code.
 * @example el.addEventListener('paysession-error', (event) => console.log(event.detail))
 */
export class PaySessionErrorEvent extends CustomEvent<PaySessionErrorEventDetail> {
  constructor(detail: PaySessionErrorEventDetail) {
    super('paysession-error', { bubbles: true, composed: true, detail })
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'paysession-error': PaySessionErrorEvent
  }
}
