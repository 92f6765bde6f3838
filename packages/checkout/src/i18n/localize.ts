import { formatDecimal } from '@paysession/core'

export { format } from './format.js'

/**
 * An amount in its currency (`10,00 €`, `$10.123456`), from the exact decimal string: never a
 * float, every digit the service sent. A code Intl does not know follows the number.
 */
export function formatMoney(amount: string, currency: string | undefined, locale: string): string {
  return formatDecimal(amount, locale, {
    currency,
    minimumFractionDigits: currency ? undefined : 2,
  })
}

/** A token amount (`10.123456 USDC`): at least two decimals, every significant one kept. */
export function formatTokenAmount(amount: string, symbol: string | undefined, locale: string) {
  return `${formatDecimal(amount, locale, { minimumFractionDigits: 2 })} ${symbol ?? ''}`.trim()
}
