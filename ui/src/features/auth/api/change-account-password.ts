import { apiRequest } from '@/lib/api-client'

/** PUT /api/auth/change-account-password {currentPassword, newPassword, confirmPassword} (bearer). */
export function changeAccountPassword(input: { currentPassword: string; newPassword: string; confirmPassword: string }) {
  return apiRequest<null>('/api/auth/change-account-password', { method: 'PUT', json: input })
}
