import useSWR from 'swr'
import { fetchNftPage } from '@/lib/nft/api'
import type { Nft } from '@/lib/nft/types'
import { TRENDING_NFTS_PATH } from './trending-nfts'

/** Each home slider asks for 10 NFTs (section 9). */
export const SLIDER_LIMIT = 10

/** A slider's call. */
export const sliderQuery = (formOfSale: 'AUCTION' | 'FIXEDPRICE') => ({ page: 1, limit: SLIDER_LIMIT, formOfSale })

/**
 * GET /api/nft/trendingnfts?page=1&limit=10&formOfSale=AUCTION|FIXEDPRICE: the live auctions and
 * trending NFTs sliders. Failures are only logged (the slider then shows its empty message).
 */
export function useSliderNfts(formOfSale: 'AUCTION' | 'FIXEDPRICE') {
  return useSWR<Nft[]>(
    [TRENDING_NFTS_PATH, 1, SLIDER_LIMIT, formOfSale],
    async () => (await fetchNftPage(TRENDING_NFTS_PATH, sliderQuery(formOfSale))).data ?? [],
    { revalidateOnFocus: false, shouldRetryOnError: false, onError: (error) => console.error('Could not load a home slider', error) },
  )
}
