import { formatDecimal } from '@paysession/core'
import { rtl } from './catalogs.js'
import { format } from './format.js'

export { format }

/**
 * The locale with Latin digits: an amount or an address is compared, digit by digit, with what
 * wallets and exchanges show, and they show Latin digits (docs/checkout.md, Languages).
 */
export function numbers(locale: string): string {
  let latin = latinLocales.get(locale)
  if (!latin) {
    latin = new Intl.Locale(locale, { numberingSystem: 'latn' }).toString()
    latinLocales.set(locale, latin)
  }
  return latin
}
// Intl.Locale is slow to build on a phone, and every render formats the amount again.
const latinLocales = new Map<string, string>()

// In a right-to-left language an amount with its symbol is one left-to-right island
// (U+2066 LEFT-TO-RIGHT ISOLATE … U+2069 POP DIRECTIONAL ISOLATE): never "USDC 10.00". Intl's
// own direction marks (he: "\u200f10.00 \u200f$") would move the space out of it.
const isolate = (text: string, locale: string) =>
  rtl(locale) ? `\u2066${text.replace(/[\u200e\u200f]/g, '')}\u2069` : text

/**
 * An amount in its currency (`10,00 €`, `$10.123456`), from the exact decimal string: never a
 * float, every digit the service sent. A code Intl does not know follows the number.
 */
export function formatMoney(amount: string, currency: string | undefined, locale: string): string {
  const text = formatDecimal(amount, numbers(locale), {
    currency,
    minimumFractionDigits: currency ? undefined : 2,
  })
  return isolate(text, locale)
}

/** A token amount (`10.123456 USDC`): at least two decimals, every significant one kept. */
export function formatTokenAmount(amount: string, symbol: string | undefined, locale: string) {
  const text = `${formatDecimal(amount, numbers(locale), { minimumFractionDigits: 2 })} ${symbol ?? ''}`
  return isolate(text.trim(), locale)
}
