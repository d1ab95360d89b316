import useSWR from 'swr'
import { apiRequest } from './api-client'
import type { Paged } from './nft/types'
import { usePagedList } from './nft/use-paged-list'

/** SELLER ranks users by what they sold, CREATOR by what they made. */
export type TrendingType = 'SELLER' | 'CREATOR'

/** A seller or creator card (marketplace.md section 3). */
export type TrendingUser = {
  id?: string
  userId: string
  username: string
  fullName: string
  avatar: string
  coverImage: string
  /** The card's info text (the user's bio). */
  info?: string
  bio?: string
  totalSold: number
  totalCollection: number
  totalCreations: number
}

/** Trending sellers and creators load 10 at a time (section 9). */
export const TRENDING_PAGE_SIZE = 10
export const TRENDING_CREATORS_PATH = '/api/trendingcreators'
/** The home slider's call: the first page of trending sellers. */
export const TRENDING_SELLERS_FIRST_PAGE = { page: 1, limit: TRENDING_PAGE_SIZE, type: 'SELLER' }

/** GET /api/trendingcreators?type=&page=&limit=10, infinite (the trending pages). */
export function useTrendingUsers(type: TrendingType, onError?: (error: unknown) => void) {
  return usePagedList<TrendingUser>(
    TRENDING_CREATORS_PATH,
    { type, limit: TRENDING_PAGE_SIZE },
    async (path, query) => (await apiRequest<Paged<TrendingUser>>(path, { query })).body,
    { onError },
  )
}

/** The first page of trending sellers (the home slider); failures are only logged. */
export function useTrendingSellersFirstPage() {
  return useSWR<TrendingUser[]>(
    [TRENDING_CREATORS_PATH, 'SELLER', 1, TRENDING_PAGE_SIZE],
    async () => (await apiRequest<Paged<TrendingUser>>(TRENDING_CREATORS_PATH, { query: TRENDING_SELLERS_FIRST_PAGE })).body?.data ?? [],
    { revalidateOnFocus: false, shouldRetryOnError: false, onError: (error) => console.error('Could not load trending sellers', error) },
  )
}
