import { displayMatic, shortenAddress, truncate } from '@/lib/format'
import type { Nft } from './types'

/** Card title: 25 characters plus an ellipsis. */
export const CARD_TITLE_MAX = 25
/** Card creator / owner username: 7 characters plus an ellipsis. */
export const CARD_USERNAME_MAX = 7
/** Detail description preview: 200 characters, the rest in the read-more dialog. */
export const DESCRIPTION_PREVIEW_MAX = 200
/** Transaction fee shown on the detail page. */
export const TRANSACTION_FEE_PERCENT = 5

export const cardTitle = (title: string | null | undefined) => truncate(title, CARD_TITLE_MAX)

/** The title to show: a token minted outside the app has none yet, so its token id stands in. */
export const nftTitle = (nft: Pick<Nft, 'title' | 'nftTokenId'>) => nft.title || `#${nft.nftTokenId}`
export const cardUsername = (username: string | null | undefined) => truncate(username, CARD_USERNAME_MAX)
export { shortenAddress }

/** A MATIC amount as cards show it (see `displayMatic`); `full` is what the tooltip shows. */
export function displayPrice(value: string | number | null | undefined, lng?: string): { text: string; full: string; truncated: boolean } {
  return displayMatic(value, lng)
}

/** The royalty fee shown on the detail page: the sum of the royalty percentages. */
export function royaltyFee(nft: Pick<Nft, 'royalty'>): number {
  return (nft.royalty ?? []).reduce((sum, r) => sum + Number(r.percentage || 0), 0)
}

/** The owner's address of an NFT (lower case), '' when unknown. */
export function ownerAddress(nft: Pick<Nft, 'currentOwner'>): string {
  return (nft.currentOwner?.ownerAddress ?? '').toLowerCase()
}

/** The profile link of a creator or owner: /myprofile for the signed-in user, else /user/{id}. */
export function profilePath(userId: string | null | undefined, myUserId: string | null | undefined): string | null {
  if (!userId) return null
  return userId === myUserId ? '/myprofile' : `/user/${userId}`
}

/** An auction still taking bids: open and its end not passed. */
export function isLiveAuction(nft: Pick<Nft, 'formOfSale' | 'currentAuction'>, now = Date.now()): boolean {
  const auction = nft.currentAuction
  if (nft.formOfSale !== 'AUCTION' || !auction || auction.auctionEnded) return false
  const end = new Date(auction.auctionEndHours).getTime()
  return !Number.isFinite(end) || end > now
}

/** A block-explorer link (`{explorerUrl}/{kind}/{id}`), or null when no explorer is configured. */
export function explorerLink(explorerUrl: string | null | undefined, kind: 'tx' | 'token' | 'address', id: string): string | null {
  if (!explorerUrl || !id) return null
  return `${explorerUrl.replace(/\/$/, '')}/${kind}/${id}`
}
