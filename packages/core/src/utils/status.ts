import { isPaidStatus, isTerminalStatus } from '@paysession/protocol'
import type { PaymentSession } from './paymentSession.js'

export type { PaidStatus } from '@paysession/protocol'
export { isPaidStatus, isTerminalStatus }

/** Paid or terminal: nothing left for the customer to do. */
export const isSettled = (session: Pick<PaymentSession, 'status'>) =>
  isPaidStatus(session.status) || isTerminalStatus(session.status)
