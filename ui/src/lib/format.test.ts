import { describe, expect, it } from 'vitest'
import { formatAmount, formatWei, shortAmount, shortenAddress, truncate } from './format'

describe('formatAmount', () => {
  it('shows 3 decimals by default', () => {
    expect(formatAmount(1.23456)).toBe('1.235')
    expect(formatAmount('2')).toBe('2.000')
  })
  it('falls back to zero for missing or bad values', () => {
    expect(formatAmount(undefined)).toBe('0.000')
    expect(formatAmount('abc')).toBe('0.000')
  })
  it('formats wei as MATIC', () => {
    expect(formatWei(1_500_000_000_000_000_000n)).toBe('1.500')
    expect(formatWei(undefined)).toBe('0.000')
  })
})

describe('shortAmount', () => {
  it('keeps amounts of up to 6 characters', () => {
    expect(shortAmount('12.345')).toEqual({ text: '12.345', truncated: false })
  })
  it('shows an ellipsis and the last 2 characters beyond 6', () => {
    expect(shortAmount('123.456')).toEqual({ text: '...56', truncated: true })
  })
})

describe('shortenAddress', () => {
  it('keeps the first 6 and last 4 characters', () => {
    expect(shortenAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf39F...2266')
  })
  it('returns an empty string without an address', () => {
    expect(shortenAddress(undefined)).toBe('')
  })
})

describe('truncate', () => {
  it('cuts long text and adds an ellipsis', () => {
    expect(truncate('A very long NFT title', 15)).toBe('A very long NFT...')
    expect(truncate('short', 15)).toBe('short')
  })
})
