import { useCallback, useMemo } from 'react'
import { useSearchParams } from 'react-router'
import type { ExploreFilter } from '@/lib/nft/api'
import type { FormOfSale, OrderBy, SortBy } from '@/lib/nft/types'
import type { TranslationKey } from '@/lib/i18n'

/** The sort menu: each entry is a sort key and an order (0 newest / highest first, 1 oldest / lowest first). */
export const SORT_OPTIONS = [
  { id: 'recent', labelKey: 'browse.sort.recent', sortBy: 'DATE', orderBy: 0 },
  { id: 'priceAsc', labelKey: 'browse.sort.priceAsc', sortBy: 'PRICE', orderBy: 1 },
  { id: 'priceDesc', labelKey: 'browse.sort.priceDesc', sortBy: 'PRICE', orderBy: 0 },
  { id: 'popular', labelKey: 'browse.sort.popular', sortBy: 'POPULARITY', orderBy: 0 },
  { id: 'endingSoon', labelKey: 'browse.sort.endingSoon', sortBy: 'ENDING', orderBy: 1 },
] as const satisfies readonly { id: string; labelKey: TranslationKey; sortBy: SortBy; orderBy: OrderBy }[]

const SORT_KEYS: SortBy[] = ['DATE', 'PRICE', 'POPULARITY', 'ENDING']

/** The sort menu of a list: ending soon only where auctions are listed. */
export function sortOptions(formOfSale: FormOfSale) {
  return SORT_OPTIONS.filter((o) => o.sortBy !== 'ENDING' || formOfSale === 'AUCTION')
}

/** The browse list's filter that the URL query `params` names (see {@link useBrowseFilter}). */
export function browseFilter(params: URLSearchParams, formOfSale: FormOfSale): ExploreFilter {
  const sortBy = params.get('sortBy') as SortBy | null
  return {
    formOfSale,
    category: params.get('type') || 'all',
    sortBy: sortBy && SORT_KEYS.includes(sortBy) && (sortBy !== 'ENDING' || formOfSale === 'AUCTION') ? sortBy : 'DATE',
    orderBy: params.get('orderBy') === '1' ? 1 : 0,
    search: params.get('search') ?? '',
    verifiedOnly: params.get('verified') === '1',
  }
}

/**
 * The browse list's filter lives in the URL query, so a reloaded or shared link shows the same
 * list: `type` (category id or `all`, the spec's parameter), `sortBy`, `orderBy`, `search` and
 * `verified` (1: verified creators only). Defaults (all, DATE, 0, no search, everyone) are left out of the URL.
 */
export function useBrowseFilter(formOfSale: FormOfSale) {
  const [params, setParams] = useSearchParams()
  const filter = useMemo(() => browseFilter(params, formOfSale), [params, formOfSale])

  const update = useCallback(
    (change: Partial<Omit<ExploreFilter, 'formOfSale'>>) => {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous)
          const set = (key: string, value: string | undefined, fallback: string) =>
            value === undefined ? undefined : value && value !== fallback ? next.set(key, value) : next.delete(key)
          set('type', change.category, 'all')
          if (change.category !== undefined && change.category === 'all') next.set('type', 'all')
          set('sortBy', change.sortBy, 'DATE')
          set('orderBy', change.orderBy === undefined ? undefined : String(change.orderBy), '0')
          set('search', change.search === undefined ? undefined : change.search.trim(), '')
          set('verified', change.verifiedOnly === undefined ? undefined : change.verifiedOnly ? '1' : '', '')
          return next
        },
        { replace: change.search !== undefined },
      )
    },
    [setParams],
  )

  const sortId = SORT_OPTIONS.find((o) => o.sortBy === filter.sortBy && o.orderBy === filter.orderBy)?.id ?? 'recent'
  return { filter, update, sortId }
}
