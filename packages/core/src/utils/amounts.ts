import { PaySessionError } from '../errors/base.js'
import { formatDecimal } from './formatDecimal.js'

const decimalPattern = /^(\d+)(?:\.(\d+))?$/

/**
 * Converts a positive decimal string to integer base units, exactly. Refuses (never rounds)
 * with `INVALID_AMOUNT`: more fraction digits than `decimals`, zero, negative, or malformed.
 * @example parseAmount('12.50', 6) // 12500000n
 */
export function parseAmount(value: string, decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255)
    throw new PaySessionError('INVALID_AMOUNT', { details: `invalid decimals ${decimals}` })
  const match = typeof value === 'string' ? decimalPattern.exec(value) : null
  if (!match)
    throw new PaySessionError('INVALID_AMOUNT', { details: `not a decimal string: ${value}` })
  const whole = match[1]!
  const fraction = match[2] ?? ''
  if (fraction.length > decimals)
    throw new PaySessionError('INVALID_AMOUNT', {
      details: `${value} has more than ${decimals} decimals`,
    })
  const units = BigInt(whole + fraction.padEnd(decimals, '0'))
  if (units === 0n) throw new PaySessionError('INVALID_AMOUNT', { details: 'amount is zero' })
  return units
}

/** Exact decimal string of base units, no locale, no trailing zeros (`'12.5'`). */
export function toDecimalString(units: bigint, decimals: number): string {
  const negative = units < 0n
  const abs = negative ? -units : units
  const base = 10n ** BigInt(decimals)
  const fraction = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return `${negative ? '-' : ''}${abs / base}${fraction ? `.${fraction}` : ''}`
}

/**
 * Formats base units for display in a locale, without floating point: grouping from the locale,
 * at least two decimals, and every significant decimal kept.
 * @example formatAmount(1234500000n, 6, 'de-DE') // '1.234,50'
 */
export function formatAmount(units: bigint, decimals: number, locale?: string): string {
  const text = formatDecimal(toDecimalString(units < 0n ? -units : units, decimals), locale, {
    minimumFractionDigits: Math.min(2, decimals),
  })
  return units < 0n ? `-${text}` : text
}
