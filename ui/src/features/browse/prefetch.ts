import { warmGet } from '@/lib/api-client'
import { EAGER_IMAGES, IMAGE_SIZES, preloadImage } from '@/lib/image-sources'
import { EXPLORE_PATH, exploreQuery } from '@/lib/nft/api'
import type { Nft, Paged } from '@/lib/nft/types'
import { browseFilter } from './hooks/use-browse-filter'

/** /explore's or /auction's first page for the filter in `url`, and its first row's pictures. */
export function prefetch(url: URL) {
  const formOfSale = url.pathname === '/auction' ? 'AUCTION' : 'FIXEDPRICE'
  // The page's own call: the list's first page, as usePagedList asks for it.
  const query = { ...exploreQuery(browseFilter(url.searchParams, formOfSale), 1), page: 1 }
  void warmGet<Paged<Nft>>(EXPLORE_PATH, query).then((page) => {
    for (const nft of (page?.data ?? []).slice(0, EAGER_IMAGES)) void preloadImage(nft.file, IMAGE_SIZES.card)
  })
}
