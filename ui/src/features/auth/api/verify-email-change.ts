import { mutate } from 'swr'
import { apiRequest } from '@/lib/api-client'
import { MY_PROFILE_KEY } from '@/lib/use-user'

/** PUT /api/auth/verifyemailchange {newEmail, verificationCode} (bearer). Revalidates my profile. */
export async function verifyEmailChange(input: { newEmail: string; verificationCode: string }) {
  const result = await apiRequest<null>('/api/auth/verifyemailchange', { method: 'PUT', json: input })
  void mutate(MY_PROFILE_KEY)
  return result
}
