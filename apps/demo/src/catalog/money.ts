// Amounts the demo shows. Every amount is a decimal string from the service or the chain; these
// helpers only move characters and add integers (protocol's decimal codec), so nothing passes
// through a float.
import { decimalPattern, decimalToUnits, unitsToDecimal } from '@paysession/protocol'

/** "10000.5" → "10,000.5". Anything that is not a plain decimal string is returned as is. */
export function groupDigits(amount: string): string {
  const match = decimalPattern.exec(amount)
  if (!match) return amount
  const whole = match[1]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return match[2] === undefined ? whole : `${whole}.${match[2]}`
}

/** "$12.00", "€1,039.00"; other currencies as "12.00 XYZ". */
export function formatPrice(amount: string, currency: string): string {
  const symbol = ({ USD: '$', EUR: '€' } as Record<string, string>)[currency]
  return symbol ? `${symbol}${groupDigits(amount)}` : `${groupDigits(amount)} ${currency}`
}

/** Exact sum of decimal strings, with at least two decimals ("6.5" + "1.25" → "7.75"). */
export function sumDecimals(amounts: string[]): string {
  return combine(
    amounts,
    amounts.map(() => 1n),
  )
}

/** Exact `amount - minus`, never below zero ("12.00" - "5.00" → "7.00"). */
export function subtractDecimals(amount: string, minus: string): string {
  return combine([amount, minus], [1n, -1n])
}

/** Malformed amounts count as zero; the result has the finest scale given, at least cents. */
function combine(amounts: string[], signs: bigint[]): string {
  const scale = Math.max(2, ...amounts.map((a) => decimalPattern.exec(a)?.[2]?.length ?? 0))
  const total = amounts.reduce(
    (sum, a, i) => sum + signs[i]! * (decimalToUnits(a, scale) ?? 0n),
    0n,
  )
  return unitsToDecimal(total < 0n ? 0n : total, scale, { minDecimals: 2 })
}
