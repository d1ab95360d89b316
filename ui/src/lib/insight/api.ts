import useSWR from 'swr'
import { apiRequest, getBody } from '../api-client'
import type { Paged } from '../nft/types'
import { usePagedList } from '../nft/use-paged-list'

/** One sale or bid of an NFT (GET /api/nft/pricehistory/{id}); `at` in Unix seconds. */
export type PricePoint = { kind: 'SALE' | 'BID'; price: string; priceWei: string; at: number; address: string; txHash: string }

/** A collection's figures now; amounts in MATIC with their wei beside them. */
export type CollectionStats = {
  collectionId: string
  floorPrice: string | null
  floorPriceWei: string | null
  volume24h: string
  volume7d: string
  volumeAll: string
  sales: number
  owners: number
  items: number
  listed: number
  listedShare: number
}

/** One UTC day of a collection's history; `day` its start in Unix seconds. */
export type DayBucket = { day: number; volume: string; volumeWei: string; sales: number; floor: string | null; floorWei: string | null }

export type CollectionInsight = { stats: CollectionStats; days: DayBucket[] }

/** The periods and columns of the ranking (GET /api/stats/collections). */
export const PERIODS = ['24H', '7D', '30D', 'ALL'] as const
export type Period = (typeof PERIODS)[number]
export const STATS_SORTS = ['TITLE', 'FLOOR', 'VOLUME', 'CHANGE', 'SALES', 'OWNERS', 'ITEMS', 'LISTED'] as const
export type StatsSort = (typeof STATS_SORTS)[number]

export type RankedCollection = {
  rank: number
  collectionId: string
  title: string
  image: string
  floorPrice: string | null
  volume: string
  previousVolume: string | null
  /** Volume change against the period before, in percent (null: all time, or nothing sold before). */
  change: number | null
  sales: number
  owners: number
  items: number
  listed: number
  listedShare: number
}

export const STATS_PAGE_SIZE = 20
export const STATS_PATH = '/api/stats/collections'
export const priceHistoryKey = (nftId: string) => `/api/nft/pricehistory/${encodeURIComponent(nftId)}`
export const collectionInsightKey = (id: string) => `/api/stats/collection/${encodeURIComponent(id)}`

/** An NFT's sales and bids, oldest first; `version` changes when the NFT does (a new bid or sale). */
export function usePriceHistory(nftId: string, version?: string) {
  return useSWR<PricePoint[]>([priceHistoryKey(nftId), version ?? ''], ([path]: [string, string]) => getBody<PricePoint[]>(path), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
    keepPreviousData: true,
  })
}

/** A collection's figures and daily history. */
export function useCollectionInsight(id: string | undefined | null) {
  return useSWR<CollectionInsight>(id ? collectionInsightKey(id) : null, getBody, { revalidateOnFocus: false, shouldRetryOnError: false })
}

/** The ranking, 20 a page, infinite; a new period, column or direction starts it again. */
export function useCollectionRanking(period: Period, sortBy: StatsSort, ascending: boolean, onError?: (error: unknown) => void) {
  return usePagedList<RankedCollection>(
    STATS_PATH,
    { period, sortBy, orderBy: ascending ? 1 : 0, limit: STATS_PAGE_SIZE },
    async (path, query) => (await apiRequest<Paged<RankedCollection>>(path, { query })).body,
    { onError },
  )
}
