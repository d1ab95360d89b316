import type { TFunction } from 'i18next'
import { formatWeiMatic, shortenAddress } from '@/lib/format'
import type { Notice } from '@/lib/live/stream'
import { targetPath } from '@/lib/moderation/api'

/** Who a notice names: their username, or their wallet shortened. */
export function counterpartName(notice: Pick<Notice, 'counterpartUsername' | 'counterpartAddress'>): string {
  return notice.counterpartUsername || shortenAddress(notice.counterpartAddress) || ''
}

/**
 * The sentence telling a notice, in the user's language, amounts exact from wei ("You were outbid
 * on Dune: bob bid 2.500 MATIC. Your 2.000 MATIC was refunded.").
 */
export function noticeText(t: TFunction, notice: Notice, lng?: string): string {
  if (notice.targetKind) return moderationText(t, notice)
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

/**
 * A moderator's decision told to the owner (hidden, restored, an appeal turned down) or to a
 * reporter (decided), with the moderator's reason; never the moderator nor the other reporters
 * (the notice carries neither).
 */
function moderationText(t: TFunction, notice: Notice): string {
  const kind = notice.targetKind ?? 'nft'
  const name = notice.targetTitle || (kind === 'nft' ? notice.nftTitle : null)
  const title = name ? t(`notices.targets.${kind}`, { name }) : t(`notices.untitledTargets.${kind}`)
  const values = { title, reason: notice.reason ?? '' }
  if (notice.kind === 'REPORT_DECIDED' && notice.decision) return t(`notices.decided.${notice.decision}`, values)
  return t(`notices.text.${notice.kind}`, values)
}

/** Where a notice leads: its NFT's page, or the collection's or user's a moderation notice is about. */
export function noticeLink(notice: Pick<Notice, 'nftId' | 'targetKind' | 'targetId'>): string {
  if (notice.targetKind && notice.targetId) return targetPath(notice.targetKind, notice.targetId)
  return `/nft/${encodeURIComponent(notice.nftId)}`
}
