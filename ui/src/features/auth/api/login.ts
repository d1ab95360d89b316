import { apiRequest } from '@/lib/api-client'

/** The server's answer to a login with an e-mail that was never verified (a new code was sent). */
export const EMAIL_NOT_VERIFIED = 'Cannot Login Email Not Verified, OTP send to your email'

/** POST /api/auth/login {email, password} -> {accessToken}. */
export function login(input: { email: string; password: string }) {
  return apiRequest<{ accessToken: string }>('/api/auth/login', { method: 'POST', json: input, auth: false })
}
