import { parseAmount, unitsToDecimal } from '@paysession/protocol'

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
  const [whole, fraction = ''] = toDecimalString(units < 0n ? -units : units, decimals).split('.')
  const minimum = Math.min(2, decimals)
  const digits = fraction.padEnd(minimum, '0')
  const format = new Intl.NumberFormat(locale)
  const separator = format.formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.'
  const sign = units < 0n ? '-' : ''
  return `${sign}${format.format(BigInt(whole!))}${digits ? separator + digits : ''}`
}
