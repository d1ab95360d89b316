import { useCallback, useEffect, useRef } from 'react'
import useSWRInfinite from 'swr/infinite'
import { useLiveChanges } from '../live/live-store'
import type { Paged } from './types'

export type PagedQuery = Record<string, string | number | undefined>

/**
 * An infinite list (marketplace.md section 4, "Infinite lists"): page 1 first, then the page after
 * the last one's `currentPage`, until a page says `lastPage`. A different `path` or `query` (sort,
 * order, search, category, sale type) is a different swr key, so the list starts again from page 1
 * with nothing shown from the previous filter. `path` null loads nothing.
 */
export function usePagedList<T, Q extends object = PagedQuery>(
  path: string | null,
  query: Q,
  fetchPage: (path: string, query: Q) => Promise<Paged<T>>,
  {
    onError,
    liveId,
    liveNft,
  }: {
    onError?: (error: unknown) => void
    /** The NFT an item shows: a change of it refetches the loaded pages. */
    liveId?: (item: T) => string | undefined
    /** An NFT whose every change refetches the list, shown in it or not (an NFT's offers). */
    liveNft?: string
  } = {},
) {
  const queryKey = JSON.stringify(query)
  const getKey = (_index: number, previous: Paged<T> | null) => {
    if (!path) return null
    if (previous && previous.lastPage) return null
    const page = previous ? previous.currentPage + 1 : 1
    return ['paged', path, queryKey, page] as const
  }
  const swr = useSWRInfinite<Paged<T>>(
    getKey,
    ([, p, q, page]: readonly [string, string, string, number]) => fetchPage(p, { ...(JSON.parse(q) as Q), page }),
    // Loading a further page leaves the loaded ones alone; coming back to a list reloads every
    // loaded page (a trade on the detail page may have changed them).
    { revalidateFirstPage: false, revalidateOnMount: true, revalidateOnFocus: false, shouldRetryOnError: false, onError },
  )
  const pages = swr.data ?? []
  const last = pages[pages.length - 1]
  const done = !!last && last.lastPage
  const loadingFirst = !!path && !swr.data && !swr.error
  const loadingMore = swr.isValidating && !!swr.data && swr.size > pages.length
  const { setSize, isValidating } = swr
  const loadMore = useCallback(() => {
    if (!done && !isValidating && !swr.error) void setSize((n) => n + 1)
  }, [done, isValidating, setSize, swr.error])
  const items = pages.flatMap((p) => p?.data ?? [])
  // Live: refetch the loaded pages when the stream says one of their items changed (its price,
  // sale state, owner), or that everything may have.
  const shown = useRef(new Set<string>())
  shown.current = new Set(liveId ? items.map(liveId).filter((id): id is string => !!id) : [])
  if (liveNft) shown.current.add(liveNft)
  const { mutate } = swr
  const onChange = useCallback(
    (change: { nfts: { nftId: string }[] }) => {
      if (change.nfts.some((n) => shown.current.has(n.nftId))) void mutate()
    },
    [mutate],
  )
  const onReset = useCallback(() => void mutate(), [mutate])
  useLiveChanges(onChange, liveId || liveNft ? onReset : undefined)
  return {
    items,
    totalItems: pages[0]?.totalItems ?? 0,
    done,
    error: swr.error,
    loadingFirst,
    loadingMore,
    loadMore,
    /** Refetches every loaded page (after a change to one of the items). */
    refresh: () => swr.mutate(),
  }
}

/**
 * Calls `onVisible` whenever the returned element scrolls into view (the sentinel under an
 * infinite list), and again after `version` changes while it stays in view. Without IntersectionObserver (old browsers, tests) nothing happens.
 */
export function useSentinel(onVisible: () => void, enabled: boolean, version: unknown = null) {
  const ref = useRef<HTMLDivElement | null>(null)
  const callback = useRef(onVisible)
  callback.current = onVisible
  useEffect(() => {
    const node = ref.current
    if (!enabled || !node || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) callback.current()
    }, { rootMargin: '400px 0px' })
    observer.observe(node)
    return () => observer.disconnect()
    // `version` (the item count) re-observes after each page: a sentinel still in view after a
    // short page must fire again.
  }, [enabled, version])
  return ref
}
