/** A collection as the API returns it (marketplace.md section 3). */
export type Collection = {
  _id: string
  title: string
  image: string
  creator: { userId: string; username: string; fullName?: string; avatar?: string }
  /** How many NFTs it holds (`totalItems` is the same figure under the spec's other name). */
  nftCount?: number
  totalItems?: number
  createdAt?: string
  isLiked: boolean
  totalLikes: number
  /** The lowest fixed price its page lists (MATIC), or null; the volume of its members' sales, all time (MATIC). */
  floorPrice?: string | null
  volume?: string
  /** A seller collection's picture, used when there is no `image`. */
  artworkImage?: string
  /** Verified by an admin (absent reads as not). */
  verified?: boolean
}

/** Collections, favourites and profile lists load 9 at a time (section 9). */
export const COLLECTION_PAGE_SIZE = 9
