import { PaySessionError } from '../errors/base.js'

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
  return formatDecimal(toDecimalString(units, decimals), locale, {
    minimumFractionDigits: Math.min(2, decimals),
  })
}

export type FormatDecimalOptions = {
  /** An ISO 4217 code: the locale places its symbol. Another code is appended as text. */
  currency?: string | undefined
  /** Pads the fraction with zeros (default: the currency's minor units, else 0). */
  minimumFractionDigits?: number | undefined
}

/**
 * What a customer reads for a decimal string, localised without a float round trip: Intl formats
 * the whole part as a `bigint` (grouping, sign, currency symbol), and the fraction digits are put
 * in by hand after the locale's decimal separator, every significant one kept. A value that is not
 * a decimal string is shown as it was sent.
 * @example formatDecimal('1234.123456', 'de-DE', { currency: 'EUR' }) // '1.234,123456 €'
 */
export function formatDecimal(
  value: string,
  locale?: string,
  options: FormatDecimalOptions = {},
): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value)
  if (!match) return value
  const [, sign, whole, fraction = ''] = match
  const { currency } = options
  let style: Intl.NumberFormatOptions = {}
  try {
    if (currency)
      style = new Intl.NumberFormat(locale, { style: 'currency', currency }).resolvedOptions()
  } catch {
    // Not an ISO 4217 code: the number, then the code.
    return `${formatDecimal(value, locale, { minimumFractionDigits: options.minimumFractionDigits ?? 2 })} ${currency}`
  }
  const minimum = options.minimumFractionDigits ?? style.minimumFractionDigits ?? 0
  const digits = fraction.replace(/0+$/, '').padEnd(minimum, '0')
  const places = digits ? 1 : 0
  const parts = new Intl.NumberFormat(locale, {
    ...(currency ? { style: 'currency', currency } : {}),
    minimumFractionDigits: places,
    maximumFractionDigits: places,
  }).formatToParts(BigInt(`${sign}${whole}`))
  const text = parts.map((part) => (part.type === 'fraction' ? digits : part.value)).join('')
  // -0.5: the bigint -0n has no sign.
  return sign && !parts.some((part) => part.type === 'minusSign') ? `-${text}` : text
}
