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

  it('tells a moderation decision with its reason and leads to its target, never naming the moderator', async () => {
    await i18n.changeLanguage('en')
    const hidden: Notice = { ...notice, kind: 'HIDDEN', counterpartAddress: null, targetKind: 'nft', targetId: '80001-7', targetTitle: 'Dune', reason: 'A copy' }
    expect(noticeText(i18n.t, hidden, 'en')).toBe('A moderator hid Dune from everyone but you: “A copy”. Its page says why; you can appeal once.')
    expect(noticeLink(hidden)).toBe('/nft/80001-7')
    const collection: Notice = { ...hidden, kind: 'RESTORED', nftId: '', nftTitle: null, targetKind: 'collection', targetId: 'c-1', targetTitle: 'Harbour', reason: 'Cleared' }
    expect(noticeText(i18n.t, collection, 'en')).toBe('A moderator restored the collection Harbour: “Cleared”. It shows to everyone again.')
    expect(noticeLink(collection)).toBe('/collection/c-1')
    const decided = (decision: 'HIDE' | 'RESTORE' | 'DISMISS'): Notice => ({ ...hidden, kind: 'REPORT_DECIDED', targetKind: 'user', targetId: 'u-9', targetTitle: 'zed', decision, reason: 'Checked' })
    expect(noticeText(i18n.t, decided('DISMISS'), 'en')).toBe('Your report of @zed was dismissed: “Checked”')
    expect(noticeText(i18n.t, decided('HIDE'), 'en')).toContain('was upheld')
    expect(noticeText(i18n.t, decided('RESTORE'), 'en')).toContain('restored it')
    expect(noticeLink(decided('HIDE'))).toBe('/user/u-9')
    expect(noticeText(i18n.t, { ...decided('DISMISS'), targetTitle: null }, 'en')).toBe('Your report of a user was dismissed: “Checked”')
    const declined: Notice = { ...hidden, kind: 'APPEAL_DECLINED', reason: 'The copy is plain' }
    expect(noticeText(i18n.t, declined, 'en')).toBe('A moderator reviewed your appeal of Dune: it stays hidden. “The copy is plain”')
  })
})
