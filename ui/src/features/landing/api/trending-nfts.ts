import useSWR from 'swr'
import { siteStorage } from '@/lib/site-storage'
import { apiRequest } from '@/lib/api-client'

/** The NFT fields the landing deck shows (marketplace.md section 3). */
export type NftUser = { userId: string; username: string; fullName: string; avatar: string }
export type TrendingNft = {
  _id: string
  file: string
  title: string
  fixedPrice: number | string
  creator: NftUser
  currentOwner: NftUser
  totalLikes: number
  isLiked: boolean
  updatedAt: string
}
export type Page = { data: TrendingNft[]; currentPage: number; lastPage: boolean; totalItems: number }

export const DECK_SIZE = 6
export const TRENDING_CACHE_KEY = 'trendingNfts'
export const TRENDING_NFTS_PATH = '/api/nft/trendingnfts'
export const trendingNftsKey = [TRENDING_NFTS_PATH, 1, DECK_SIZE, 'FIXEDPRICE'] as const
/** The deck's call: the first six trending NFTs at a fixed price. */
export const DECK_QUERY = { page: 1, limit: DECK_SIZE, formOfSale: 'FIXEDPRICE' }

export async function fetchTrendingNfts(): Promise<TrendingNft[]> {
  const { body } = await apiRequest<Page>(TRENDING_NFTS_PATH, { query: DECK_QUERY })
  const list = body?.data ?? []
  if (list.length >= DECK_SIZE) siteStorage.setItem(TRENDING_CACHE_KEY, JSON.stringify(list))
  return list
}

function cached(): TrendingNft[] | undefined {
  try {
    const raw = siteStorage.getItem(TRENDING_CACHE_KEY)
    return raw ? (JSON.parse(raw) as TrendingNft[]) : undefined
  } catch {
    return undefined
  }
}

/**
 * GET /api/nft/trendingnfts?page=1&limit=6&formOfSale=FIXEDPRICE. The cached list (local storage
 * `trendingNfts`, written when 6 or more came back) shows at once, then it is refreshed.
 * Failures are only logged.
 */
export function useTrendingNfts() {
  return useSWR<TrendingNft[]>(trendingNftsKey, fetchTrendingNfts, {
    fallbackData: cached(),
    revalidateOnMount: true,
    revalidateOnFocus: false,
    shouldRetryOnError: false,
    onError: (error) => console.error('Could not load trending NFTs', error),
  })
}
