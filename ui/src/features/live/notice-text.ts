import type { TFunction } from 'i18next'
import { formatWeiMatic, shortenAddress } from '@/lib/format'
import type { Notice } from '@/lib/live/stream'

/** Who a notice names: their username, or their wallet shortened. */
export function counterpartName(notice: Pick<Notice, 'counterpartUsername' | 'counterpartAddress'>): string {
  return notice.counterpartUsername || shortenAddress(notice.counterpartAddress) || ''
}

/**
 * The sentence telling a notice, in the user's language, amounts exact from wei ("You were outbid
 * on Dune: bob bid 2.500 MATIC. Your 2.000 MATIC was refunded.").
 */
export function noticeText(t: TFunction, notice: Notice, lng?: string): string {
  const values = {
    title: notice.nftTitle || t('notices.untitled'),
    amount: formatWeiMatic(notice.amountWei, lng, { exact: true }),
    who: counterpartName(notice) || t('notices.someone'),
  }
  if (notice.kind === 'OUTBID' && notice.topAmountWei) return t('notices.outbidBy', { ...values, top: formatWeiMatic(notice.topAmountWei, lng, { exact: true }) })
  return t(`notices.text.${notice.kind}`, values)
}

/** Where "Bid again" leads: the NFT's page with its bid form open. */
export function bidAgainLink(notice: Pick<Notice, 'nftId'>): string {
  return `${noticeLink(notice)}?bid=1`
}

/** Where a notice leads: its NFT's page. */
export function noticeLink(notice: Pick<Notice, 'nftId'>): string {
  return `/nft/${encodeURIComponent(notice.nftId)}`
}
