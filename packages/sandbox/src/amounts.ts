// Exact decimal-string <-> base-unit conversion. No floating point anywhere.

const DECIMAL = /^(\d+)(?:\.(\d+))?$/

/** Parses a positive-or-zero decimal string into base units; null when it cannot be represented exactly. */
export function toUnits(value: unknown, decimals: number): bigint | null {
  if (typeof value !== 'string') return null
  const m = DECIMAL.exec(value)
  if (!m) return null
  const [, whole = '', frac = ''] = m
  if (frac.length > decimals) return null
  return BigInt(whole + frac.padEnd(decimals, '0'))
}

/** Formats base units as a decimal string with at least two decimals: 10000000n, 6 -> "10.00". */
export function fromUnits(units: bigint, decimals: number): string {
  const negative = units < 0n
  const abs = (negative ? -units : units).toString().padStart(decimals + 1, '0')
  const whole = abs.slice(0, abs.length - decimals)
  let frac = abs.slice(abs.length - decimals).replace(/0+$/, '')
  if (frac.length < 2) frac = frac.padEnd(Math.min(2, decimals), '0')
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`
}
