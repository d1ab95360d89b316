/**
 * The API's NFT shapes (marketplace.md section 3), as `/api/nft/explore/`, `/api/nft/detail/{id}`
 * and every other NFT list answer them. Shared by every screen that shows NFTs.
 */

/** `FIXEDPRICE`, `AUCTION` or `NOT_FOR_SALE`. */
export type FormOfSale = 'FIXEDPRICE' | 'AUCTION' | 'NOT_FOR_SALE'

/** The user behind an address; every field is null when the address is linked to no account. */
export type NftPerson = {
  userId: string | null
  username: string | null
  fullName: string | null
  avatar: string | null
  /** A verified creator (admins verify; absent reads as not). */
  verified?: boolean
}

/** A token's open auction. Amounts are MATIC as decimal strings; the end is ISO 8601. */
export type NftAuction = {
  auctionId: string
  auctionStartPrice: string
  auctionBuyNowPrice: string
  auctionHighestBid: string
  auctionEndHours: string
  auctionEnded: boolean
}

/** `bps`: the share in basis points as the contract takes it (250 = 2.5%). */
export type NftRoyalty = { walletAddress: string; percentage: number; bps?: number }
export type NftProperty = { key: string; value: string }

/** An NFT as cards and the detail page show it. */
export type Nft = {
  _id: string
  nftTokenId: string
  file: string
  title: string
  description: string
  nftCategory: string
  metadataUrl: string
  tokenUri?: string
  /** Fixed (or buy-now) price in MATIC. */
  fixedPrice: string
  /** The same in wei (a decimal string). */
  fixedPriceWei?: string
  formOfSale: FormOfSale
  contractAddress: string
  contractType: string
  coinName: string
  totalLikes: number
  isLiked: boolean
  isBookmarked: boolean
  createdAt: string
  updatedAt: string
  /** When it was last put on sale (the mint time if never). */
  listedAt?: string
  currentAuction: NftAuction | null
  /** While a moderator holds its sale (a stolen-item hold): when the hold ends (ISO 8601); null otherwise. */
  saleHeldUntil?: string | null
  /** Whether the hold came with a note of evidence (a police report). */
  saleHoldEvidence?: boolean
  highestBid: string
  royalty: NftRoyalty[]
  properties: NftProperty[]
  /** Its rarity rank in a collection (OpenRarity's method): on a collection's list, in that one. */
  rarity?: NftRarity | null
  transactionHash: string
  creator: NftPerson & { address?: string }
  currentOwner: NftPerson & { ownerAddress?: string }
}

/** An NFT's rank in a collection: 1 is the rarest; equal scores share a rank. */
export type NftRarity = { collectionId: string; rank: number; of: number; score: number }

/** A page of any list: `data` plus the paging fields every list carries. */
export type Paged<T> = {
  data: T[]
  count?: number
  totalItems: number
  currentPage: number
  lastPage: boolean
  currentItemCount?: number
}

/** One bid of an auction's bid history. */
export type Bid = {
  id: string | number
  auctionId?: string
  bidAmount: string
  bidderAddress?: string
  status?: string
  createdAt: string
  transactionHash: string
  bidder: NftPerson
}

/** One row of an NFT's history. */
export type HistoryEvent = {
  id?: string | number
  _id?: string
  typeOfEvent: string
  address?: string
  transactionHash?: string
  timestamp: string
  fullName: string | null
  username: string | null
  avatar: string | null
  userId?: string | null
}

/** A category of the category bar. */
export type Category = { id: string; categoryName: string }

/** A collection as the add-to-collection dialog lists it. */
export type Collection = {
  _id: string
  title: string
  image: string
  creator?: { userId: string; username: string }
  nftCount?: number
}

/**
 * The browse sort keys and orders (0 newest / highest first, 1 oldest / lowest first). ENDING (explore
 * only): live auctions by their end.
 */
export type SortBy = 'DATE' | 'PRICE' | 'POPULARITY' | 'ENDING'
export type OrderBy = 0 | 1
