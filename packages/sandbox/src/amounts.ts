// The decimal-amount codec is the protocol's; the sandbox answers with at least two decimals.
import { decimalToUnits, unitsToDecimal } from '@paysession/protocol'

/** Parses a positive-or-zero decimal string into base units; null when it cannot be represented exactly. */
export const toUnits = decimalToUnits

/** Formats base units as a decimal string with at least two decimals: 10000000n, 6 -> "10.00". */
export const fromUnits = (units: bigint, decimals: number): string =>
  unitsToDecimal(units, decimals, { minDecimals: 2 })
