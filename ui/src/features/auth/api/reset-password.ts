import { apiRequest } from '@/lib/api-client'

/** PUT /api/auth/resetpassword-changepassword {resetPasswordToken, newPassword, confirmPassword}. */
export function resetPassword(input: { resetPasswordToken: string; newPassword: string; confirmPassword: string }) {
  return apiRequest<null>('/api/auth/resetpassword-changepassword', { method: 'PUT', json: input, auth: false })
}
