/** Shared by sign-up and edit profile (both check a username on blur). */
import { apiRequest } from './api-client'

/** The server's success signal; any other success text is shown as a warning. */
export const USERNAME_AVAILABLE = 'Username is Available'
export const USERNAME_NOT_AVAILABLE = 'Username is not Available'

export const checkUsernameKey = (username: string) => ['/api/auth/checkusername', username] as const

/** GET /api/auth/checkusername?username=: the message says whether the name is free. */
export async function checkUsername(username: string): Promise<string> {
  const { message } = await apiRequest<null>('/api/auth/checkusername', { query: { username } })
  return message
}
