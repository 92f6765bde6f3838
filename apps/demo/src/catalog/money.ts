// Amounts the demo shows. Every amount is a decimal string from the service or the chain; these
// helpers only move characters and add integers, so nothing passes through a float.

const decimal = /^(\d+)(?:\.(\d+))?$/

/** "10000.5" → "10,000.5". Anything that is not a plain decimal string is returned as is. */
export function groupDigits(amount: string): string {
  const match = decimal.exec(amount)
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

function combine(amounts: string[], signs: bigint[]): string {
  const parsed = amounts.map((a) => decimal.exec(a))
  const scale = Math.max(2, ...parsed.map((m) => m?.[2]?.length ?? 0))
  const total = parsed.reduce(
    (sum, m, i) => (m ? sum + signs[i]! * BigInt(m[1]! + (m[2] ?? '').padEnd(scale, '0')) : sum),
    0n,
  )
  const digits = (total < 0n ? 0n : total).toString().padStart(scale + 1, '0')
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
}
