/**
 * The NFT calls of marketplace.md section 7 that several screens share: fetchers, their swr keys
 * and the mutations (like, bookmark, collections, the trade record calls).
 */
import useSWR, { useSWRConfig } from 'swr'
import { apiRequest, getBody } from '@/lib/api-client'
import type { Bid, Category, Collection, FormOfSale, HistoryEvent, Nft, NftAuction, OrderBy, Paged, SortBy } from './types'

/** Browse, profile, collection and favourites lists load 9 at a time. */
export const PAGE_SIZE = 9
/** Bid history loads 10 at a time, from page 1. */
export const BID_PAGE_SIZE = 10
/** The add-to-collection dialog lists 9 collections a page. */
export const COLLECTION_DIALOG_PAGE_SIZE = 9

export const EXPLORE_PATH = '/api/nft/explore/'

/** What the browse list is filtered and sorted by (the URL query of /explore and /auction). */
export type ExploreFilter = {
  formOfSale: FormOfSale | 'ALL'
  /** A category id, or 'all' (the call then omits nftCategory). */
  category: string
  sortBy: SortBy
  orderBy: OrderBy
  search: string
  /** Trait filters, `Name:Value` each (see lib/traits). */
  traits?: readonly string[]
  /** Only NFTs of creators an admin verified. */
  verifiedOnly?: boolean
}

/** The query of one browse page; `nftCategory` is omitted for 'all' and `search` when empty. */
export function exploreQuery(filter: ExploreFilter, page: number, limit = PAGE_SIZE) {
  return {
    nftCategory: filter.category && filter.category !== 'all' ? filter.category : undefined,
    page,
    limit,
    formOfSale: filter.formOfSale,
    sortBy: filter.sortBy,
    orderBy: filter.orderBy,
    search: filter.search.trim() || undefined,
    trait: filter.traits?.length ? filter.traits : undefined,
    verifiedOnly: filter.verifiedOnly ? 'true' : undefined,
  }
}

/** One page of any NFT list. */
export async function fetchNftPage(path: string, query: Record<string, string | number | readonly string[] | undefined>): Promise<Paged<Nft>> {
  return (await apiRequest<Paged<Nft>>(path, { query })).body
}

// --- detail -------------------------------------------------------------------------------

export const nftDetailKey = (id: string) => `/api/nft/detail/${encodeURIComponent(id)}`
export const nftInAuctionKey = (id: string) => `/api/nft/nftinauction/${encodeURIComponent(id)}`
export const nftHistoryKey = (id: string) => `/api/nft/nfthistory/${encodeURIComponent(id)}`
export const bidHistoryPath = (id: string, auctionId: string) =>
  `/api/nft/bidhistory/${encodeURIComponent(id)}/${encodeURIComponent(auctionId)}/`

/** GET /api/nft/detail/{id}. */
export function useNftDetail(id: string | undefined) {
  return useSWR<Nft>(id ? nftDetailKey(id) : null, getBody, { revalidateOnFocus: false, shouldRetryOnError: false })
}

/** GET /api/nft/nftinauction/{id}: a list whose first item is the open auction. */
export function useNftInAuction(id: string | undefined) {
  return useSWR<NftAuction[]>(id ? nftInAuctionKey(id) : null, getBody, { revalidateOnFocus: false, shouldRetryOnError: false })
}

/** GET /api/nft/nfthistory/{id}: `body.data`, newest first. */
export function useNftHistory(id: string | undefined) {
  return useSWR<HistoryEvent[]>(
    id ? nftHistoryKey(id) : null,
    async (path: string) => (await getBody<{ data: HistoryEvent[] }>(path))?.data ?? [],
    { revalidateOnFocus: false, shouldRetryOnError: false, onError: (e) => console.error('Could not load the NFT history', e) },
  )
}

export type { Bid }

// --- categories -----------------------------------------------------------------------------

export const CATEGORIES_KEY = '/api/misc/category'

/** GET /api/misc/category: the category bar (cached for the session). */
export function useCategories() {
  return useSWR<Category[]>(CATEGORIES_KEY, getBody, { revalidateOnFocus: false, revalidateIfStale: false, shouldRetryOnError: false })
}

// --- likes and bookmarks ----------------------------------------------------------------------

/** PUT /api/nft/like/{id}: toggles the caller's like. */
export async function toggleLike(id: string) {
  return apiRequest(`/api/nft/like/${encodeURIComponent(id)}`, { method: 'PUT' })
}

/** PUT /api/nft/bookmark/{id}: toggles the caller's bookmark. */
export async function toggleBookmark(id: string) {
  return apiRequest(`/api/nft/bookmark/${encodeURIComponent(id)}`, { method: 'PUT' })
}

// --- collections ----------------------------------------------------------------------------

export const MY_COLLECTIONS_PATH = '/api/collection'

/** GET /api/collection?page&limit=9: the caller's collections, for the add-to-collection dialog. */
export async function fetchMyCollections(page: number): Promise<Paged<Collection>> {
  return (
    await apiRequest<Paged<Collection>>(MY_COLLECTIONS_PATH, {
      query: { page, limit: COLLECTION_DIALOG_PAGE_SIZE, sortBy: 'DATE', orderBy: 0 },
    })
  ).body
}

/** PUT /api/collection/nft/{collectionId} with `[{nftId}]`. */
export async function addToCollection(collectionId: string, nftId: string) {
  return apiRequest(`/api/collection/nft/${encodeURIComponent(collectionId)}`, { method: 'PUT', json: [{ nftId }] })
}

/** PUT /api/collection/nft/{collectionId}/{nftId}: takes an NFT out of a collection. */
export async function removeFromCollection(collectionId: string, nftId: string) {
  return apiRequest(`/api/collection/nft/${encodeURIComponent(collectionId)}/${encodeURIComponent(nftId)}`, { method: 'PUT' })
}

// --- trade record calls -----------------------------------------------------------------------

/** POST /api/nft/fixedsale/purchase once the buy transaction is confirmed. */
export function recordPurchase(nft: Pick<Nft, '_id' | 'formOfSale'>, transactionHash: string) {
  return apiRequest('/api/nft/fixedsale/purchase', {
    method: 'POST',
    json: { formOfSale: nft.formOfSale, nftid: nft._id, saleQuantity: 1, transactionHash },
  })
}

/** POST /api/nft/auction/placebid once the bid transaction is confirmed. */
export function recordBid(nft: Pick<Nft, '_id'>, bidAmount: string, transactionHash: string) {
  return apiRequest('/api/nft/auction/placebid', {
    method: 'POST',
    json: { formOfSale: 'AUCTION', nftid: nft._id, bidAmount, transactionHash },
  })
}

/** PUT /api/nft/stopsale/{id} once the toggle-for-sale transaction is confirmed. */
export function recordStopSale(nftId: string, transactionHash: string) {
  return apiRequest(`/api/nft/stopsale/${encodeURIComponent(nftId)}`, { method: 'PUT', json: { transactionHash } })
}

/** DELETE /api/nft/burnnft/{id} once the burn transaction is confirmed. */
export function recordBurn(nftId: string, transactionHash: string) {
  return apiRequest(`/api/nft/burnnft/${encodeURIComponent(nftId)}`, { method: 'DELETE', json: { transactionHash } })
}

// --- revalidation -----------------------------------------------------------------------------

type ScopedMutate = ReturnType<typeof useSWRConfig>['mutate']

/**
 * After a trade changed an NFT: its detail, auction, bids and history, and every other cached
 * NFT call (lists, trending, my bids), which may now show it differently. Infinite lists refetch
 * when they mount again (their pages are stale). Pass the `mutate` of `useSWRConfig()`.
 */
export function revalidateNft(mutate: ScopedMutate, nftId: string) {
  const id = encodeURIComponent(nftId)
  // The key filter alone: revalidates and keeps what is shown meanwhile (passing `undefined` as the
  // data cleared it, so the page fell back to its skeleton and an open bid form closed).
  return mutate((key) => {
    const text = Array.isArray(key) ? key.map(String).join(' ') : typeof key === 'string' ? key : ''
    return text.includes(id) || text.includes('/api/nft/') || text.includes('/api/getmarketplacestatistics')
  })
}
