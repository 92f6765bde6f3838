import { parseAmount, unitsToDecimal } from '@paysession/protocol'
import { formatDecimal } from './formatDecimal.js'

export { parseAmount }

/** Exact decimal string of base units, no locale, no trailing zeros (`'12.5'`). */
export const toDecimalString = (units: bigint, decimals: number): string =>
  unitsToDecimal(units, decimals)

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
