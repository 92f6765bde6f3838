import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  formatAmount,
  formatDecimal,
  PaySessionError,
  parseAmount,
  toDecimalString,
} from '../src/exports/index.js'

const decimalsArb = fc.integer({ min: 0, max: 30 })
const unitsArb = fc.bigInt({ min: 1n, max: 10n ** 40n })

describe('parseAmount', () => {
  test('exact values', () => {
    expect(parseAmount('12.50', 6)).toBe(12_500_000n)
    expect(parseAmount('10', 6)).toBe(10_000_000n)
    expect(parseAmount('0.000001', 6)).toBe(1n)
    expect(parseAmount('1000000000.00', 2)).toBe(100_000_000_000n)
    expect(parseAmount('0.1', 18)).toBe(10n ** 17n)
  })

  test.each([
    ['0', 6],
    ['0.000', 6],
    ['-1', 6],
    ['1.0000001', 6],
    ['1.5', 0],
    ['1e6', 6],
    ['.5', 6],
    ['5.', 6],
    ['', 6],
    [' 1', 6],
    ['1,5', 6],
    ['0x10', 6],
    ['NaN', 6],
    ['Infinity', 6],
  ])('refuses %j with %i decimals as INVALID_AMOUNT', (value, decimals) => {
    const error = catchError(() => parseAmount(value, decimals))
    expect(error).toBeInstanceOf(PaySessionError)
    expect(error.code).toBe('INVALID_AMOUNT')
  })

  test('refuses non-strings', () => {
    expect(catchError(() => parseAmount(12.5 as unknown as string, 6)).code).toBe('INVALID_AMOUNT')
  })

  test('round trip: units → decimal string → units', () => {
    fc.assert(
      fc.property(unitsArb, decimalsArb, (units, decimals) => {
        expect(parseAmount(toDecimalString(units, decimals), decimals)).toBe(units)
      }),
    )
  })

  test('round trip with padding zeros up to the decimals', () => {
    fc.assert(
      fc.property(unitsArb, fc.integer({ min: 0, max: 12 }), fc.nat(12), (units, decimals, pad) => {
        const text = toDecimalString(units, decimals)
        const padded = text.includes('.') ? text : `${text}.`
        const fraction = padded.split('.')[1]!.length
        const zeros = Math.min(pad, decimals - fraction)
        const withZeros = padded + '0'.repeat(zeros)
        if (withZeros.endsWith('.')) return
        expect(parseAmount(withZeros, decimals)).toBe(units)
      }),
    )
  })

  test('more fraction digits than decimals is refused, never rounded', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 18 }),
        fc.stringMatching(/^[0-9]{1,10}$/),
        fc.stringMatching(/^[0-9]{0,5}[1-9]$/),
        (decimals, whole, tail) => {
          const fraction = '0'.repeat(decimals) + tail
          expect(catchError(() => parseAmount(`${whole}.${fraction}`, decimals)).code).toBe(
            'INVALID_AMOUNT',
          )
        },
      ),
    )
  })

  test('any string is either parsed exactly or refused with INVALID_AMOUNT, never thrown otherwise', () => {
    const outcome = (value: string, decimals: number) => {
      try {
        return { units: parseAmount(value, decimals) }
      } catch (error) {
        return { error }
      }
    }
    let parsed = 0
    let refused = 0
    fc.assert(
      fc.property(
        // Arbitrary text, and amounts written out from units (so both outcomes are drawn).
        fc.oneof(
          fc.string(),
          fc.tuple(unitsArb, decimalsArb).map(([u, d]) => toDecimalString(u, d)),
        ),
        decimalsArb,
        (value, decimals) => {
          const result = outcome(value, decimals)
          if ('error' in result) {
            refused++
            expect(result.error).toBeInstanceOf(PaySessionError)
            expect((result.error as PaySessionError).code).toBe('INVALID_AMOUNT')
            return
          }
          parsed++
          expect(result.units > 0n).toBe(true)
          // Exact: the units written out parse back to the same units.
          expect(parseAmount(toDecimalString(result.units, decimals), decimals)).toBe(result.units)
        },
      ),
    )
    expect(parsed).toBeGreaterThan(0)
    expect(refused).toBeGreaterThan(0)
  })
})

describe('formatAmount', () => {
  test('locale grouping and separator, at least two decimals, every significant decimal', () => {
    expect(formatAmount(1_234_500_000n, 6, 'en-US')).toBe('1,234.50')
    expect(formatAmount(1_234_500_000n, 6, 'de-DE')).toBe('1.234,50')
    expect(formatAmount(10_000_001n, 6, 'en-US')).toBe('10.000001')
    expect(formatAmount(0n, 6, 'en-US')).toBe('0.00')
    expect(formatAmount(5n, 0, 'en-US')).toBe('5')
    expect(formatAmount(-1_500_000n, 6, 'en-US')).toBe('-1.50')
    expect(formatAmount(10n ** 30n + 1n, 18, 'en-US')).toBe('1,000,000,000,000.000000000000000001')
  })

  test('formatting keeps the exact value (en-US, commas removed)', () => {
    fc.assert(
      fc.property(unitsArb, decimalsArb, (units, decimals) => {
        const shown = formatAmount(units, decimals, 'en-US').replaceAll(',', '')
        expect(parseAmount(shown, Math.max(decimals, 2))).toBe(
          units * 10n ** BigInt(Math.max(decimals, 2) - decimals),
        )
      }),
    )
  })
})

describe('formatDecimal: what a customer reads, from the exact decimal string', () => {
  test('full token precision: 6 decimals', () => {
    expect(formatDecimal('10.123456', 'en')).toBe('10.123456')
    expect(formatDecimal('10.123456', 'de')).toBe('10,123456')
    expect(formatDecimal('10.1234', 'en', { minimumFractionDigits: 2 })).toBe('10.1234')
    expect(formatDecimal('10', 'en', { minimumFractionDigits: 2 })).toBe('10.00')
    expect(formatDecimal('10.10', 'en')).toBe('10.1')
    expect(formatDecimal('1234567.000001', 'en-US')).toBe('1,234,567.000001')
  })

  test('18 decimals, beyond what a float holds', () => {
    const value = '9007199254740993.123456789012345678'
    expect(formatDecimal(value, 'en-US')).toBe('9,007,199,254,740,993.123456789012345678')
    expect(formatDecimal(value, 'de-DE')).toBe('9.007.199.254.740.993,123456789012345678')
    expect(formatDecimal(value, 'fr-FR')).toBe(
      '9\u202f007\u202f199\u202f254\u202f740\u202f993,123456789012345678',
    )
  })

  test('in a currency: the locale places the symbol, every digit stays', () => {
    expect(formatDecimal('10.123456', 'en-US', { currency: 'USD' })).toBe('$10.123456')
    expect(formatDecimal('10.5', 'en-US', { currency: 'USD' })).toBe('$10.50')
    expect(formatDecimal('1234.5', 'de-DE', { currency: 'EUR' })).toBe('1.234,50\u00a0€')
    expect(formatDecimal('10.123456', 'fr-FR', { currency: 'EUR' })).toBe('10,123456\u00a0€')
    expect(formatDecimal('10.000001', 'en-US', { currency: 'XYZ1' })).toBe('10.000001 XYZ1')
  })

  test('any value at any precision reads back exactly (en-US, grouping removed)', () => {
    fc.assert(
      fc.property(unitsArb, decimalsArb, (units, decimals) => {
        const text = toDecimalString(units, decimals)
        expect(formatDecimal(text, 'en-US').replaceAll(',', '')).toBe(text)
      }),
    )
  })

  test('a value that is not a decimal string is shown as sent, never as a number', () => {
    expect(formatDecimal('1e21', 'en-US')).toBe('1e21')
  })
})

function catchError(fn: () => unknown): PaySessionError {
  try {
    fn()
  } catch (error) {
    return error as PaySessionError
  }
  throw new Error('expected an error')
}
