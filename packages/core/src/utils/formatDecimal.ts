// Its own module: the checkout's first file needs it for the button, and nothing else of amounts.

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
