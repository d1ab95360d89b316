import { apiRequest } from '@/lib/api-client'

/** PUT /api/auth/reset-account-password {email}: e-mails a reset link. */
export function resetAccountPassword(email: string) {
  return apiRequest<null>('/api/auth/reset-account-password', { method: 'PUT', json: { email }, auth: false })
}
