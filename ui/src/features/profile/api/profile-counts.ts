import useSWR from 'swr'
import { getBody } from '@/lib/api-client'

/** The totals beside the profile tabs. */
export type ProfileCounts = {
  collections: number
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
