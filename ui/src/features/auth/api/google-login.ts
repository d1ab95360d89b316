import { apiRequest } from '@/lib/api-client'

/** POST /api/auth/googlelogin {idToken} -> {accessToken}. */
export function googleLogin(idToken: string) {
  return apiRequest<{ accessToken: string }>('/api/auth/googlelogin', { method: 'POST', json: { idToken }, auth: false })
}
