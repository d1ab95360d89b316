import useSWR from 'swr'
import { getBody } from '@/lib/api-client'

export type MarketplaceStatistics = { totalNftMinted: number; totalSeller: number; totalNftSold: number }

export const STATISTICS_KEY = '/api/getmarketplacestatistics'

/** GET /api/getmarketplacestatistics; a failure is only logged. */
export function useMarketplaceStatistics() {
  return useSWR<MarketplaceStatistics>(STATISTICS_KEY, getBody, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
    onError: (error) => console.error('Could not load marketplace statistics', error),
  })
}
