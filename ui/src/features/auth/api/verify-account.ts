import { ApiError, apiRequest } from '@/lib/api-client'

export const ALREADY_VERIFIED = 'User is already verified'

/**
 * POST /api/auth/verifyaccount {verificationCode, email} -> {accessToken}.
 * 'User is already verified' counts as success (then there may be no token to sign in with).
 */
export async function verifyAccount(input: { verificationCode: string; email: string }) {
  try {
    return await apiRequest<{ accessToken?: string } | null>('/api/auth/verifyaccount', { method: 'POST', json: input, auth: false })
  } catch (error) {
    if (error instanceof ApiError && error.message === ALREADY_VERIFIED) {
      return { statuscode: error.statuscode, body: null, message: error.message }
    }
    throw error
  }
}
