import i18n from 'i18next'
import { describe, expect, it } from 'vitest'
import type { Notice } from '@/lib/live/stream'
import { bidAgainLink, counterpartName, noticeLink, noticeText } from './notice-text'

const notice: Notice = {
  position: 42,
  kind: 'OUTBID',
  nftId: '80001-7',
  nftTitle: 'Dune',
  nftFile: null,
  amount: '1000.5',
  amountWei: '1000500000000000000000',
  counterpartAddress: '0x1234567890abcdef1234567890abcdef12345678',
  counterpartUsername: null,
  transactionHash: '0xabc',
  createdAt: '2026-11-26T10:00:00Z',
  read: false,
}

describe('notice text', () => {
  it('names the NFT, the amount in the language and the other party', async () => {
    await i18n.changeLanguage('en')
    expect(noticeText(i18n.t, notice, 'en')).toBe('You were outbid on Dune: 0x1234...5678 bid more. Your 1,000.500\u00a0MATIC was refunded.')
    expect(noticeText(i18n.t, { ...notice, kind: 'SOLD', counterpartUsername: 'bob' }, 'ge')).toContain('1.000,500\u00a0MATIC')
    expect(counterpartName({ counterpartUsername: 'bob', counterpartAddress: '0x1' })).toBe('bob')
    expect(noticeLink(notice)).toBe('/nft/80001-7')
  })

  it('says how much the new top bid is, exactly, and leads back to the bid form', async () => {
    await i18n.changeLanguage('en')
    const outbid = { ...notice, counterpartUsername: 'kofi_waves', amountWei: '282450000000000000', topAmountWei: '1000000000000000001', topAmount: '1.000000000000000001' }
    expect(noticeText(i18n.t, outbid, 'en')).toBe('You were outbid on Dune: kofi_waves bid 1.000000000000000001\u00a0MATIC. Your 0.28245\u00a0MATIC was refunded.')
    expect(noticeText(i18n.t, outbid, 'fr')).toContain('1,000000000000000001\u00a0MATIC')
    expect(bidAgainLink(outbid)).toBe('/nft/80001-7?bid=1')
  })
})
