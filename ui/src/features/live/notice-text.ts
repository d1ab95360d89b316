import type { TFunction } from 'i18next'
import { formatMatic, shortenAddress } from '@/lib/format'
import type { Notice } from '@/lib/live/stream'

/** Who a notice names: their username, or their wallet shortened. */
export function counterpartName(notice: Pick<Notice, 'counterpartUsername' | 'counterpartAddress'>): string {
  return notice.counterpartUsername || shortenAddress(notice.counterpartAddress) || ''
}

/** The sentence telling a notice, in the user's language ("You were outbid on Dune: bob bid 2 MATIC"). */
export function noticeText(t: TFunction, notice: Notice, lng?: string): string {
  return t(`notices.text.${notice.kind}`, {
    title: notice.nftTitle || t('notices.untitled'),
    amount: formatMatic(notice.amount, lng),
    who: counterpartName(notice) || t('notices.someone'),
  })
}

/** Where a notice leads: its NFT's page. */
export function noticeLink(notice: Pick<Notice, 'nftId'>): string {
  return `/nft/${encodeURIComponent(notice.nftId)}`
}
