import { describe, expect, it } from 'vitest'
import { formatPrice, groupDigits, subtractDecimals, sumDecimals } from '../src/catalog/money.ts'

describe('amounts as the demo shows them', () => {
  it('groups thousands in the decimal string itself, every decimal kept', () => {
    expect(groupDigits('9991.00')).toBe('9,991.00')
    expect(groupDigits('10000.000001')).toBe('10,000.000001')
    // Past 2^53 a float would already have changed the last digits.
    expect(groupDigits('12345678901234567.89')).toBe('12,345,678,901,234,567.89')
    expect(groupDigits('999.99')).toBe('999.99')
    expect(groupDigits('0.10')).toBe('0.10')
    expect(groupDigits('—')).toBe('—')
    expect(formatPrice('1039.00', 'EUR')).toBe('€1,039.00')
    expect(formatPrice('12.5', 'XYZ')).toBe('12.5 XYZ')
  })

  it('sums refunds exactly', () => {
    expect(sumDecimals(['6.50'])).toBe('6.50')
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.30') // 0.30000000000000004 as floats
    expect(sumDecimals(['6.5', '1.25', '0.000001'])).toBe('7.750001')
    expect(sumDecimals(['0.00', '0.00'])).toBe('0.00')
    expect(sumDecimals([])).toBe('0.00')
    expect(sumDecimals(['9007199254740993.01', '0.01'])).toBe('9007199254740993.02')
  })

  it('subtracts what was captured exactly, never below zero', () => {
    expect(subtractDecimals('12.00', '5.00')).toBe('7.00')
    expect(subtractDecimals('10.1', '0.000001')).toBe('10.099999')
    expect(subtractDecimals('9007199254740993.02', '0.01')).toBe('9007199254740993.01')
    expect(subtractDecimals('1.00', '2.00')).toBe('0.00')
  })
})
