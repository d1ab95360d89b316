import { apiRequest } from '../api-client'
import { type PagedQuery, usePagedList } from '../nft/use-paged-list'
import type { Paged } from '../nft/types'
import { COLLECTION_PAGE_SIZE, type Collection } from './types'

export const BROWSE_COLLECTIONS_PATH = '/api/collection/browse'

/** The grid's sort keys. */
export type CollectionSortBy = 'DATE' | 'POPULARITY' | 'ITEMS' | 'TITLE'

/** One page of GET /api/collection/browse. */
export async function fetchCollectionsPage(path: string, query: PagedQuery): Promise<Paged<Collection>> {
  return (await apiRequest<Paged<Collection>>(path, { query })).body
}

/**
 * GET /api/collection/browse: every collection, or one user's (`userId`), 9 a page, newest
 * first, infinite. `enabled` false loads nothing (an inactive profile tab). `refresh` changing
 * starts again from page 1 (it is part of the list's key, not sent). Failures are returned as
 * the error and, with `onError`, reported by the caller.
 */
export function useBrowseCollections({
  userId,
  search,
  sortBy = 'DATE',
  orderBy = 0,
  verifiedOnly = false,
  enabled = true,
  refresh = 0,
  onError,
}: {
  userId?: string
  search?: string
  /** DATE, POPULARITY, ITEMS or TITLE (the server sorts; collections with nothing to show come last). */
  sortBy?: CollectionSortBy
  orderBy?: 0 | 1
  /** Only collections an admin verified. */
  verifiedOnly?: boolean
  enabled?: boolean
  refresh?: number
  onError?: (error: unknown) => void
} = {}) {
  return usePagedList<Collection>(
    enabled ? BROWSE_COLLECTIONS_PATH : null,
    { userId, search: search || undefined, sortBy, orderBy, verifiedOnly: verifiedOnly ? 'true' : undefined, limit: COLLECTION_PAGE_SIZE, refresh: refresh || undefined },
    (path, { refresh: _refresh, ...query }) => fetchCollectionsPage(path, query),
    { onError },
  )
}
