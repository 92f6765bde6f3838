// Decimal strings as text. Kept apart from amounts.ts (base units, formatting) so that the
// widget's first file, which compares amounts, does not carry the rest.

/** A non-negative decimal string: `'12'`, `'12.50'`. No sign, exponent or grouping. */
export const decimalPattern = /^(\d+)(?:\.(\d+))?$/

/**
 * Whether two decimal strings are the same number, compared as text without floats:
 * `'10.5'` equals `'10.50'` and `'010.5'`. A malformed string equals nothing.
 * @example isSameAmount('25', '25.00') // true
 */
export function isSameAmount(a: string, b: string): boolean {
  const canonical = (value: string) => {
    const match = decimalPattern.exec(value)
    return match && `${BigInt(match[1]!)}.${(match[2] ?? '').replace(/0+$/, '')}`
  }
  const left = canonical(a)
  return !!left && left === canonical(b)
}
