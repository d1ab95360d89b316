import { parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import { exactBalance, shortBalance } from './balance'

describe('wallet balance', () => {
  it('is short and readable, never an ellipsis: compact from 1 000 on, 2 decimals below', () => {
    expect(shortBalance(parseEther('10000'), 'en')).toBe('10K')
    expect(shortBalance(parseEther('9999.999'), 'en')).toBe('10K')
    expect(shortBalance(parseEther('1234.5'), 'en')).toBe('1.2K')
    expect(shortBalance(parseEther('2500000'), 'en')).toBe('2.5M')
    expect(shortBalance(parseEther('9.87654'), 'en')).toBe('9.88')
    expect(shortBalance(parseEther('999.5'), 'en')).toBe('999.5')
    expect(shortBalance(0n, 'en')).toBe('0')
    expect(shortBalance(1n, 'en')).toBe('< 0.01')
  })

  it("follows the reader's language ('ge' is German)", () => {
    expect(shortBalance(parseEther('9.87654'), 'ge')).toBe('9,88')
    expect(shortBalance(parseEther('10000'), 'fr')).toMatch(/^10\s?k$/)
    // German abbreviates from a million on; below, the figure is short enough as it is.
    expect(shortBalance(parseEther('1234.5'), 'ge')).toBe('1234,5')
    expect(shortBalance(parseEther('2500000'), 'ge')).toMatch(/^2,5\sMio\.$/)
  })

  it('keeps every decimal in the exact figure, grouped for the language', () => {
    expect(exactBalance(parseEther('10000'), 'en')).toBe('10,000')
    expect(exactBalance(parseEther('9999.123456789012345678'), 'en')).toBe('9,999.123456789012345678')
    expect(exactBalance(1n, 'en')).toBe('0.000000000000000001')
    expect(exactBalance(parseEther('10000.5'), 'ge')).toBe('10.000,5')
  })
})
