import useSWR from 'swr'
import { apiRequest, getBody } from '@/lib/api-client'
import { BROWSE_COLLECTIONS_PATH } from '@/lib/collection/browse-collections'
import type { Paged } from '@/lib/nft/types'

/** The totals beside the profile tabs (`collections` only when the server adds it). */
export type ProfileCounts = {
  collections?: number
  created: number
  owned: number
  inAuction: number
  inSale: number
}

export const profileCountsKey = (userId: string) => `/api/nft/profilecounts/${encodeURIComponent(userId)}`

/** GET /api/nft/profilecounts/{userid}: the five tab totals; a failure leaves them unshown. */
export function useProfileCounts(userId: string | undefined) {
  return useSWR<ProfileCounts>(userId ? profileCountsKey(userId) : null, getBody, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
    onError: (error) => console.error('Could not load the profile totals', error),
  })
}

export const collectionsTotalKey = (userId: string) => [BROWSE_COLLECTIONS_PATH, 'total', userId] as const

/**
 * The Collections tab's total when GET /api/nft/profilecounts does not carry it: the
 * `totalItems` of the user's collection list, asked for with a one-item page.
 */
export function useCollectionsTotal(userId: string | undefined, needed: boolean) {
  return useSWR<number>(
    userId && needed ? collectionsTotalKey(userId) : null,
    async () => (await apiRequest<Paged<unknown>>(BROWSE_COLLECTIONS_PATH, { query: { userId, page: 1, limit: 1 } })).body?.totalItems ?? 0,
    { revalidateOnFocus: false, shouldRetryOnError: false, onError: (error) => console.error('Could not count the collections', error) },
  )
}
