import i18n from 'i18next'
import { describe, expect, it } from 'vitest'
import { chainSale, mintArgs, recordedRoyalties, recordedSale } from './mint'
import {
  type RoyaltyRow,
  type SaleValues,
  checkAuctionEnd,
  keptProperties,
  toLocalDateTime,
  validateAssetDetails,
  validateProperties,
  validateRoyalties,
  validateSale,
} from './validation'
import type { TranslationKey } from '@/lib/i18n'

const en = (key: TranslationKey | null | undefined) => (key ? i18n.t(key) : key)
const NOW = new Date('2026-03-10T12:00:30')
const inHours = (h: number) => toLocalDateTime(new Date(NOW.getTime() + h * 3_600_000))
const sale = (values: Partial<SaleValues>): SaleValues => ({ formOfSale: 'FIXEDPRICE', price: '', basePrice: '', buyPrice: '', auctionEnd: inHours(24), ...values })
const royalty = (address: string, percentage: string, id = address): RoyaltyRow => ({ id, address, percentage })
const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const B = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('step 0', () => {
  it('names every missing field with the spec message, in the spec order', () => {
    const errors = validateAssetDetails({ title: ' ', description: '', category: '', file: null })
    expect(Object.values(errors).map(en)).toEqual([
      "NFT name can't be empty.",
      "NFT description can't be empty.",
      "NFT category can't be empty.",
      'Please upload image.',
    ])
  })

  it('passes once every field is supplied', () => {
    const file = new File(['x'], 'a.png', { type: 'image/png' })
    expect(validateAssetDetails({ title: 'Cat', description: 'A cat', category: 'c1', file })).toEqual({})
  })
})

describe('step 1 prices', () => {
  it('asks for the fixed price when it is empty or 0', () => {
    expect(en(validateSale(sale({ price: '' }), [royalty(A, '1')], NOW).price)).toBe('Please provide NFT price.')
    expect(en(validateSale(sale({ price: '0.000' }), [royalty(A, '1')], NOW).price)).toBe('Please provide NFT price.')
  })

  it('refuses negative prices and more than 18 decimals, after the missing price', () => {
    expect(en(validateSale(sale({ price: '-1' }), [royalty(A, '1')], NOW).price)).toBe('Should be greater than 0')
    expect(en(validateSale(sale({ price: '0.0000000000000000001' }), [royalty(A, '1')], NOW).price)).toBe('Value exceeds more than 18 decimals.')
    expect(validateSale(sale({ price: '0.000000000000000001' }), [royalty(A, '1')], NOW)).toEqual({})
  })

  it('checks an auction in the spec order: base, buy, buy above base, negative, decimals, date', () => {
    const missing = validateSale(sale({ formOfSale: 'AUCTION', basePrice: '0', buyPrice: '', auctionEnd: 'nope' }), [], NOW)
    expect(Object.entries(missing).map(([field, key]) => [field, en(key)])).toEqual([
      ['basePrice', 'Please provide NFT base price.'],
      ['buyPrice', 'Please provide NFT buy price.'],
      ['auctionEnd', 'invalid date'],
      ['royalty', 'Please provide royalty information.'],
    ])
    expect(en(validateSale(sale({ formOfSale: 'AUCTION', basePrice: '2', buyPrice: '2' }), [royalty(A, '1')], NOW).buyPrice)).toBe(
      'Buy price should be greater than base price.',
    )
    // Buy above base comes before the sign of the buy price.
    expect(en(validateSale(sale({ formOfSale: 'AUCTION', basePrice: '-1', buyPrice: '-2' }), [royalty(A, '1')], NOW).buyPrice)).toBe(
      'Buy price should be greater than base price.',
    )
    const signs = validateSale(sale({ formOfSale: 'AUCTION', basePrice: '-2', buyPrice: '-1' }), [royalty(A, '1')], NOW)
    expect([en(signs.basePrice), en(signs.buyPrice)]).toEqual(['Should be greater than 0', 'Should be greater than 0'])
    const decimals = validateSale(sale({ formOfSale: 'AUCTION', basePrice: '1.0000000000000000001', buyPrice: '2' }), [royalty(A, '1')], NOW)
    expect(en(decimals.basePrice)).toBe('Value exceeds more than 18 decimals.')
    expect(validateSale(sale({ formOfSale: 'AUCTION', basePrice: '1', buyPrice: '1.5' }), [royalty(A, '1')], NOW)).toEqual({})
  })

  it('asks for royalty information unless the NFT is not for sale', () => {
    expect(en(validateSale(sale({ price: '1' }), [], NOW).royalty)).toBe('Please provide royalty information.')
    expect(validateSale(sale({ formOfSale: 'NOT_FOR_SALE' }), [], NOW)).toEqual({})
    // The update page has no royalty step.
    expect(validateSale(sale({ price: '1' }), null, NOW)).toEqual({})
  })
})

describe('auction end', () => {
  it('takes a date between one minute ago and 168 hours ahead', () => {
    expect(checkAuctionEnd(inHours(168), NOW)).toBeNull()
    expect(en(checkAuctionEnd(inHours(168.1), NOW))).toBe('invalid date')
    expect(en(checkAuctionEnd(toLocalDateTime(new Date(NOW.getTime() - 120_000)), NOW))).toBe('invalid date')
    expect(en(checkAuctionEnd('2026-13-45T99:99', NOW))).toBe('invalid date')
    expect(en(checkAuctionEnd('', NOW))).toBe('invalid date')
  })

  it('refuses the minute that has just begun, which the contract would reject as not in the future', () => {
    // NOW is 12:00:30; the input's default (the current minute, 12:00) is inside the grace window.
    expect(en(checkAuctionEnd(toLocalDateTime(NOW), NOW))).toBe('The auction must end in the future.')
  })
})

describe('royalty popup', () => {
  it('applies the spec rules in order, then what the contract needs', () => {
    const cases: [RoyaltyRow[], string | null][] = [
      [[royalty(A, '1'), royalty(B, '1'), royalty('0x1', '1')], 'Max. 2 royalties can be added.'],
      [[royalty(A, '')], 'Address & Percentage both are required fields.'],
      [[royalty('', '5')], 'Address & Percentage both are required fields.'],
      [[royalty(A, '100')], 'Royalty percentage should be less than 100.'],
      [[royalty(A, '60'), royalty(B, '40')], 'Royalty percentage should be less than 100.'],
      [[royalty(A, '5', '1'), royalty(A.toLowerCase(), '5', '2')], "Two addresses can't be same."],
      [[royalty('alice.eth', '5')], 'Please enter only Ethereum wallet address.'],
      [[royalty(A, '0')], 'Should be greater than 0'],
      [[royalty(A, '2.555')], 'A percentage can have at most 2 decimals.'],
      [[royalty(A, '50'), royalty(B, '45')], 'Royalties can add up to at most 90% (the marketplace keeps room for its fee).'],
      [[royalty(A, '2.5'), royalty(B, '10')], null],
      [[], null],
    ]
    for (const [rows, message] of cases) expect(en(validateRoyalties(rows))).toBe(message)
  })
})

describe('properties popup', () => {
  it('refuses half-filled rows and drops empty ones', () => {
    expect(en(validateProperties([{ id: '1', key: 'Color', value: '' }]))).toBe('Property & Value both are required fields.')
    expect(validateProperties([{ id: '1', key: ' ', value: ' ' }])).toBeNull()
    expect(keptProperties([{ id: '1', key: ' Color ', value: 'Pink' }, { id: '2', key: '', value: '' }])).toEqual([{ id: '1', key: 'Color', value: 'Pink' }])
  })
})

describe('what is sent', () => {
  it('mints with wei, basis points and the end in seconds, in the contract argument order', () => {
    const auction = sale({ formOfSale: 'AUCTION', basePrice: '0.5', buyPrice: '1.25', auctionEnd: inHours(24) })
    const args = mintArgs('ipfs://bafy', auction, [royalty(A, '2.5'), royalty(B, '10')])
    const endSeconds = BigInt(Math.floor(new Date(inHours(24)).getTime() / 1000))
    expect(args).toEqual(['ipfs://bafy', 2, [A, B], [250n, 1000n], endSeconds, 500000000000000000n, 1250000000000000000n])
    expect(mintArgs('ipfs://x', sale({ price: '3' }), [])).toEqual(['ipfs://x', 1, [], [], 0n, 0n, 3000000000000000000n])
    expect(mintArgs('ipfs://x', sale({ formOfSale: 'NOT_FOR_SALE', price: '3' }), [])).toEqual(['ipfs://x', 0, [], [], 0n, 0n, 0n])
  })

  it('records prices in MATIC as the chain holds them and the end in milliseconds', () => {
    const auction = sale({ formOfSale: 'AUCTION', basePrice: '0.50', buyPrice: '1.25', auctionEnd: inHours(24) })
    expect(recordedSale(auction)).toEqual({
      formOfSale: 'AUCTION',
      fixedPrice: '1.25',
      auctionStartPrice: '0.5',
      auctionEndHours: chainSale(auction).endMs,
    })
    expect(recordedSale(sale({ price: '2' }))).toEqual({ formOfSale: 'FIXEDPRICE', fixedPrice: '2', auctionStartPrice: '0', auctionEndHours: 0 })
    expect(recordedRoyalties([royalty(A, '2.5')])).toEqual([{ walletAddress: A, percentage: 2.5 }])
  })
})
