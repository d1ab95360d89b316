import { apiRequest } from '@/lib/api-client'
import type { Paged } from '@/lib/nft/types'

/** The feed loads 20 rows at a time. */
export const ACTIVITY_PAGE_SIZE = 20
export const ACTIVITY_PATH = '/api/activity'

/** What kind of fact a row is (GET /api/activity `kind`). */
export const ACTIVITY_KINDS = ['MINT', 'LIST', 'PRICE', 'BID', 'SALE', 'TRANSFER', 'STOP', 'BURN', 'OFFER'] as const
export type ActivityKind = (typeof ACTIVITY_KINDS)[number]

/** The user behind a wallet. */
export type ActivityPerson = { userId: string; username: string; fullName: string; avatar: string }

/** One row of the activity feed. */
export type ActivityItem = {
  /** Its log position: newer rows have larger ones. */
  id: number
  kind: ActivityKind
  /** The fact as the NFT history names it (PUT_ON_AUCTION, WON_AUCTION...). */
  event: string
  nftId: string
  nftTitle: string
  nftFile: string
  /** MATIC (null for mints, transfers, stops and burns). */
  price: string | null
  priceWei: string | null
  /** Who did it: minter, lister, bidder, buyer, sender, burner, offerer. */
  address: string
  user: ActivityPerson | null
  /** Who it was done to: a sale's seller, a transfer's receiver, the owner a bid went to. */
  counterpart: string | null
  counterpartUser: ActivityPerson | null
  transactionHash: string
  timestamp: string
}

/** Which rows a feed shows: a kind, and at most one of an NFT, a collection, a user. */
export type ActivityScope = { nftId?: string; collectionId?: string; userId?: string }

/** GET /api/activity?kind&nftId&collectionId&userId&page&limit: one page, newest first. */
export async function fetchActivity(path: string, query: Record<string, string | number | undefined>): Promise<Paged<ActivityItem>> {
  return (await apiRequest<Paged<ActivityItem>>(path, { query })).body
}
