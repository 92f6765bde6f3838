// The service's amounts are decimal strings. They convert to integer base units and back
// exactly: no floating point anywhere.
import { PaySessionError } from './errors.js'

/** The one decimal pattern: an unsigned decimal string (`'12'`, `'12.50'`), no sign, exponent or grouping. */
export const decimalPattern = /^(\d+)(?:\.(\d+))?$/

/**
 * Whether two decimal strings are the same number, compared as text without floats:
 * `'10.5'` equals `'10.50'` and `'010.5'`. A malformed string equals nothing.
 * @example isSameAmount('25', '25.00') // true
 */
export function isSameAmount(a: string, b: string): boolean {
  const canonical = (value: string) => {
    const match = decimalPattern.exec(value)
    return match && `${BigInt(match[1]!)}.${(match[2] ?? '').replace(/0+$/, '')}`
  }
  const left = canonical(a)
  return !!left && left === canonical(b)
}

/**
 * Base units of a decimal string, exactly; `null` when it is not a decimal string or has more
 * fraction digits than `decimals` (never rounds). Zero is allowed.
 * @example decimalToUnits('12.50', 6) // 12500000n
 */
export function decimalToUnits(value: unknown, decimals: number): bigint | null {
  if (typeof value !== 'string' || !Number.isInteger(decimals) || decimals < 0) return null
  const match = decimalPattern.exec(value)
  if (!match) return null
  const fraction = match[2] ?? ''
  if (fraction.length > decimals) return null
  return BigInt(match[1]! + fraction.padEnd(decimals, '0'))
}

/**
 * The decimal string of base units, with at least `minDecimals` fraction digits and no other
 * trailing zeros.
 * @example unitsToDecimal(12500000n, 6) // '12.5'
 * @example unitsToDecimal(10000000n, 6, { minDecimals: 2 }) // '10.00'
 */
export function unitsToDecimal(
  units: bigint,
  decimals: number,
  options: { minDecimals?: number } = {},
): string {
  const negative = units < 0n
  const abs = negative ? -units : units
  const base = 10n ** BigInt(decimals)
  let fraction = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  fraction = fraction.padEnd(Math.min(options.minDecimals ?? 0, decimals), '0')
  return `${negative ? '-' : ''}${abs / base}${fraction ? `.${fraction}` : ''}`
}

/**
 * True when `value` is an amount the service accepts: a positive decimal string.
 * Numbers are refused on purpose: `0.1 + 0.2` is not an amount.
 * @example isValidAmount('12.50') // true
 * @example isValidAmount('0.00')  // false
 */
export function isValidAmount(value: unknown): value is string {
  return typeof value === 'string' && decimalPattern.test(value) && /[1-9]/.test(value)
}

/**
 * Throws `INVALID_AMOUNT` unless `value` is a positive decimal string.
 * @example assertAmount(body.amount, 'amount')
 */
export function assertAmount(value: unknown, field = 'amount'): asserts value is string {
  if (isValidAmount(value)) return
  const shown = typeof value === 'string' ? JSON.stringify(value) : `a ${typeof value}`
  throw new PaySessionError('INVALID_AMOUNT', {
    details: `${field} must be a positive decimal string matching ^\\d+(\\.\\d+)?$, got ${shown}.`,
  })
}

/**
 * A positive decimal string in base units, or `INVALID_AMOUNT` (malformed, zero, or more
 * decimals than the token has: refused, never rounded).
 * @example parseAmount('12.50', 6) // 12500000n
 */
export function parseAmount(value: string, decimals: number): bigint {
  const units = decimalToUnits(value, decimals)
  if (!units)
    throw new PaySessionError('INVALID_AMOUNT', {
      details: `${value} is not a positive decimal string with at most ${decimals} decimals`,
    })
  return units
}
