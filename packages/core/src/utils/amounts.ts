import { decimalPattern, isSameAmount, parseAmount, unitsToDecimal } from '@paysession/protocol'

// Amounts as a customer reads them. The codec itself (decimal strings ⇄ base units, comparing
// two amounts) is the protocol's.

export { isSameAmount, parseAmount }

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

export type FormatDecimalOptions = {
  /** An ISO 4217 code: the locale places its symbol. Another code is appended as text. */
  currency?: string | undefined
  /** Pads the fraction with zeros (default: the currency's minor units, else 0). */
  minimumFractionDigits?: number | undefined
}

// Building an Intl.NumberFormat costs far more than using one (milliseconds on a phone, where the
// button's amount waits for it): each locale and options are built once.
const numberFormats = new Map<string, Intl.NumberFormat>()
function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions) {
  const key = JSON.stringify([locale, options])
  let format = numberFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(locale, options)
    numberFormats.set(key, format)
  }
  return format
}

/**
 * What a customer reads for a decimal string, localised without a float round trip: Intl formats
 * the whole part as a `bigint` (grouping, currency symbol), and the fraction digits are put
 * in by hand after the locale's decimal separator, every significant one kept. A value that is not
 * an unsigned decimal string is shown as it was sent.
 * @example formatDecimal('1234.123456', 'de-DE', { currency: 'EUR' }) // '1.234,123456 €'
 */
export function formatDecimal(
  value: string,
  locale?: string,
  options: FormatDecimalOptions = {},
): string {
  const match = decimalPattern.exec(value)
  if (!match) return value
  const { currency } = options
  const style: Intl.NumberFormatOptions = currency ? { style: 'currency', currency } : {}
  try {
    const minimum =
      options.minimumFractionDigits ??
      numberFormat(locale, style).resolvedOptions().minimumFractionDigits!
    const digits = (match[2] ?? '').replace(/0+$/, '').padEnd(minimum, '0')
    const places = digits ? 1 : 0
    return numberFormat(locale, {
      ...style,
      minimumFractionDigits: places,
      maximumFractionDigits: places,
    })
      .formatToParts(BigInt(match[1]!))
      .map((part) => (part.type === 'fraction' ? digits : part.value))
      .join('')
  } catch (error) {
    if (!currency) throw error
    // Not an ISO 4217 code: the number, then the code.
    const number = formatDecimal(value, locale, {
      minimumFractionDigits: options.minimumFractionDigits ?? 2,
    })
    return `${number} ${currency}`
  }
}
