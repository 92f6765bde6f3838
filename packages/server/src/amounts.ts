import { PaySessionError } from './errors/PaySessionError.js'

const decimal = /^\d+(\.\d+)?$/

/**
 * True when `value` is an amount the service accepts: a positive decimal string.
 * Numbers are refused on purpose: `0.1 + 0.2` is not an amount.
 *
 * @example
 * isValidAmount('12.50') // true
 * isValidAmount('0.00')  // false
 * isValidAmount(12.5)    // false
 */
export function isValidAmount(value: unknown): value is string {
  return typeof value === 'string' && decimal.test(value) && /[1-9]/.test(value)
}

/**
 * Throws `INVALID_AMOUNT` unless `value` is a positive decimal string.
 *
 * @example
 * assertAmount(body.amount, 'amount')
 */
export function assertAmount(value: unknown, field = 'amount'): asserts value is string {
  if (isValidAmount(value)) return
  const shown = typeof value === 'string' ? JSON.stringify(value) : `a ${typeof value}`
  throw new PaySessionError('INVALID_AMOUNT', {
    details: `${field} must be a positive decimal string matching ^\\d+(\\.\\d+)?$, got ${shown}.`,
  })
}
