import useSWR from 'swr'
import { getBody } from '@/lib/api-client'

/** What anyone may see of a user (no e-mail, no mobile number). */
export type PublicProfile = {
  userId: string
  username: string
  fullName: string
  avatar: string
  bio: string
  coverImage: string
  /** Verified by an admin (absent reads as not). */
  verified?: boolean
  /**
   * A deleted account: its username is `deleted-` and 22 characters, its name, bio and pictures
   * are empty; what it did on chain stays under its wallet address.
   */
  erased?: boolean
}

export const userProfileKey = (userId: string) => `/api/account/getuserprofile/${encodeURIComponent(userId)}`

/** GET /api/account/getuserprofile/{userId}. */
export function useUserProfile(userId: string | undefined) {
  return useSWR<PublicProfile>(userId ? userProfileKey(userId) : null, getBody, { revalidateOnFocus: false })
}
