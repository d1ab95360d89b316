import { apiRequest } from '@/lib/api-client'
import type { Nft, Paged } from '@/lib/nft/types'

/** My bids load 10 at a time. */
export const MY_BIDS_PAGE_SIZE = 10
export const MY_BIDS_PATH = '/api/nft/mybids'

/** BID while the bid stands, ALLOTED once it won the NFT, REFUNDED once its money went back. */
export type BidStatus = 'BID' | 'ALLOTED' | 'REFUNDED'

/** One of the caller's bids (marketplace.md section 3, "Bid item"). */
export type MyBid = {
  id: string | number
  /** The NFT as lists show it (absent only if the server could not load it). */
  nftData?: Nft | null
  /** `{chain}-{token}`. */
  nftId?: string
  /** MATIC. */
  bidAmount: string
  status: BidStatus
  transactionHash: string
  /** The auction the bid was for (the NFT's `currentAuction` while it runs). */
  auctionId?: string
  /** That auction's top bid now, MATIC ("0" when none stands). */
  auctionHighestBid?: string
}

/** GET /api/nft/mybids?page&limit: one page of the caller's bids, newest first. */
export async function fetchMyBids(path: string, query: Record<string, string | number | undefined>): Promise<Paged<MyBid>> {
  return (await apiRequest<Paged<MyBid>>(path, { query })).body
}
