/** Fills `{name}` markers. */
export function format(message: string, values: Record<string, string | number> = {}): string {
  return message.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''))
}

/** An amount in its currency through Intl (`10,00 €`); the plain amount when the code is unknown. */
export function formatMoney(amount: string, currency: string | undefined, locale: string): string {
  try {
    if (currency)
      return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(+amount)
  } catch {
    // Not an ISO 4217 code: fall through to a plain number.
  }
  const number = new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }).format(+amount)
  return currency ? `${number} ${currency}` : number
}
