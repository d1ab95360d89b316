import { apiRequest } from '@/lib/api-client'

export type RegisterInput = { email: string; fullName: string; username: string; password: string; confirmPassword: string }

/** POST /api/auth/register: creates the account; the server e-mails a verification code. */
export function register(input: RegisterInput) {
  return apiRequest<null>('/api/auth/register', { method: 'POST', json: input, auth: false })
}
