import type { PaymentSession, SessionStatus } from '../api/session.js'

/** No status change can follow. */
export const isTerminalStatus = (status: SessionStatus) =>
  status === 'SUCCEEDED' || status === 'CANCELED' || status === 'ERROR'

/** For the paying customer, FUNDED and CAPTURING already mean "paid". */
export const isPaidStatus = (status: SessionStatus) =>
  status === 'FUNDED' || status === 'CAPTURING' || status === 'SUCCEEDED'

/** Paid or terminal: nothing left for the customer to do. */
export const isSettled = (session: PaymentSession) =>
  isPaidStatus(session.status) || isTerminalStatus(session.status)
