import { warmGet } from '@/lib/api-client'
import { preloadImage } from '@/lib/image-sources'
import { TRENDING_CREATORS_PATH, TRENDING_SELLERS_FIRST_PAGE } from '@/lib/trending-creators'
import { STATISTICS_KEY } from './api/marketplace-statistics'
import { sliderQuery } from './api/slider-nfts'
import { DECK_QUERY, DECK_SIZE, type Page, TRENDING_NFTS_PATH } from './api/trending-nfts'
import { DECK_IMAGE_SIZES } from './components/deck-card'

/** The home page's calls, and the picture on top of its deck (the hero's, the first one seen). */
export function prefetch() {
  void warmGet<Page>(TRENDING_NFTS_PATH, DECK_QUERY).then((page) => {
    const deck = (page?.data ?? []).slice(0, DECK_SIZE)
    // The deck shows only when full; its last card lies on top.
    if (deck.length === DECK_SIZE) void preloadImage(deck[DECK_SIZE - 1].file, DECK_IMAGE_SIZES)
  })
  void warmGet(TRENDING_NFTS_PATH, sliderQuery('AUCTION'))
  void warmGet(TRENDING_NFTS_PATH, sliderQuery('FIXEDPRICE'))
  void warmGet(STATISTICS_KEY)
  void warmGet(TRENDING_CREATORS_PATH, TRENDING_SELLERS_FIRST_PAGE)
}
