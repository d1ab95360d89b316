import { useCallback, useEffect, useRef } from 'react'
import useSWRInfinite from 'swr/infinite'
import { apiRequest } from './api-client'

/** The spec's paged response body: one page of `data`, where it is and whether it is the last. */
export type Paged<T> = {
  data: T[]
  currentPage: number
  lastPage: boolean
  totalItems: number
  count?: number
  currentItemCount?: number
}

export type PageQuery = Record<string, string | number | undefined>

type PageKey = readonly [path: string, query: string]

/**
 * An infinite list read a page at a time: page 1 first, each next page appended, nothing more
 * once a page says `lastPage`. A new `path` or `query` starts again from page 1 with an empty
 * list (swr keeps one list per first-page key, and `persistSize` is off). `path` null loads
 * nothing (a tab that is not active, a user not known yet).
 */
export function useInfinitePages<T>(
  path: string | null,
  query: PageQuery,
  { limit, onError }: { limit: number; onError?: (error: unknown) => void },
) {
  const queryText = JSON.stringify(query)
  const getKey = (index: number, previous: Paged<T> | null): PageKey | null => {
    if (!path) return null
    if (previous && (previous.lastPage || previous.data.length === 0)) return null
    // "The current page from the response plus 1": the same as index + 1 while pages chain.
    const page = previous ? previous.currentPage + 1 : index + 1
    return [path, JSON.stringify({ ...JSON.parse(queryText), page, limit })] as const
  }
  const swr = useSWRInfinite<Paged<T>, unknown, typeof getKey>(
    getKey,
    async ([url, q]: PageKey) => (await apiRequest<Paged<T>>(url, { query: JSON.parse(q) as PageQuery })).body,
    { revalidateFirstPage: false, revalidateOnFocus: false, shouldRetryOnError: false, onError },
  )
  const pages = swr.data ?? []
  const last = pages[pages.length - 1]
  const items = pages.flatMap((p) => p?.data ?? [])
  const isLoadingFirst = !!path && !swr.data && !swr.error
  const isLoadingMore = !!path && swr.size > 0 && pages.length < swr.size && !swr.error
  const hasMore = !!last && !last.lastPage && last.data.length > 0 && !swr.error
  const { setSize } = swr
  const loadMore = useCallback(() => {
    if (hasMore && !isLoadingMore) void setSize((size) => size + 1)
  }, [hasMore, isLoadingMore, setSize])
  return {
    items,
    totalItems: pages[0]?.totalItems,
    error: swr.error,
    isLoadingFirst,
    isLoadingMore,
    hasMore,
    loadMore,
    /** Reloads every page shown (after a change made by this user). */
    refresh: swr.mutate,
  }
}

/**
 * An invisible marker after a list: calls `onVisible` when it scrolls into view (with a margin,
 * so the next page is there before the user reaches the end).
 */
export function useInfiniteSentinel(onVisible: () => void, enabled: boolean, version: unknown = null) {
  const ref = useRef<HTMLDivElement | null>(null)
  const callback = useRef(onVisible)
  callback.current = onVisible
  useEffect(() => {
    const node = ref.current
    if (!node || !enabled || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) callback.current()
    }, { rootMargin: '400px 0px' })
    observer.observe(node)
    return () => observer.disconnect()
    // `version` (the item count) observes again after each page: a marker still in view after a
    // short page must ask for the next one.
  }, [enabled, version])
  return ref
}
