import { useInfinitePages } from '../paged'
import { COLLECTION_PAGE_SIZE, type Collection } from './types'

export const BROWSE_COLLECTIONS_PATH = '/api/collection/browse'

/**
 * GET /api/collection/browse: every collection, or one user's (`userId`), 9 a page, newest
 * first, infinite. `enabled` false loads nothing (an inactive profile tab). Failures are
 * returned as the error and, with `onError`, reported by the caller.
 */
export function useBrowseCollections({
  userId,
  search,
  enabled = true,
  onError,
}: { userId?: string; search?: string; enabled?: boolean; onError?: (error: unknown) => void } = {}) {
  return useInfinitePages<Collection>(
    enabled ? BROWSE_COLLECTIONS_PATH : null,
    { userId, search: search || undefined, sortBy: 'DATE', orderBy: 0 },
    { limit: COLLECTION_PAGE_SIZE, onError },
  )
}
