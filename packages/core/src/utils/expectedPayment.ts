import { PaySessionError } from '../errors/base.js'
import { isSameAmount } from './amounts.js'
import type { PaymentSession } from './paymentSession.js'

/**
 * What the merchant page expects the session to ask for. The session id and token come from the
 * page too, but the amount the customer pays comes from the service: this pins it to the order.
 */
export type ExpectedPayment = {
  /** Decimal string, compared exactly: `'10.5'` matches `'10.50'`. */
  expectedAmount?: string | undefined
  /** Currency code, compared case-insensitively. */
  expectedCurrency?: string | undefined
}

/**
 * Throws `SESSION_MISMATCH` when the session asks for another amount or currency than the page
 * expects (or does not say its currency while one is expected). Nothing set: nothing checked.
 * @example checkExpectedPayment(session, { expectedAmount: '25.00', expectedCurrency: 'USD' })
 */
export function checkExpectedPayment(session: PaymentSession, expected: ExpectedPayment): void {
  const { expectedAmount, expectedCurrency } = expected
  const amountOk = !expectedAmount || isSameAmount(session.amount, expectedAmount)
  const currencyOk =
    !expectedCurrency || session.currency?.toUpperCase() === expectedCurrency.toUpperCase()
  if (amountOk && currencyOk) return
  throw new PaySessionError('SESSION_MISMATCH', {
    details: `session ${session.amount} ${session.currency}, expected ${expectedAmount} ${expectedCurrency}`,
  })
}
