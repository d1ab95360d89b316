import useSWR from 'swr'
import { apiRequest } from './api-client'
import { type UserProfile, useSession } from './auth'

/** GET /api/account/myprofile: the signed-in user's own profile (shared by every feature). */
export const MY_PROFILE_KEY = '/api/account/myprofile'

export async function fetchMyProfile(): Promise<UserProfile> {
  const { body } = await apiRequest<UserProfile>(MY_PROFILE_KEY)
  useSession.getState().setUser(body)
  return body
}

/**
 * The signed-in user's profile, fetched while a token exists and kept in local storage
 * (`userProfile`) so the guards and the shell know the user at once on the next load.
 */
export function useUser() {
  const token = useSession((s) => s.token)
  const stored = useSession((s) => s.user)
  const swr = useSWR<UserProfile>(token ? MY_PROFILE_KEY : null, fetchMyProfile, {
    fallbackData: stored ?? undefined,
    revalidateOnFocus: false,
  })
  return { ...swr, user: token ? (swr.data ?? stored) : null }
}
