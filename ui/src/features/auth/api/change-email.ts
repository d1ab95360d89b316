import { apiRequest } from '@/lib/api-client'

/** PUT /api/auth/changeemail {newEmail} (bearer): sends a code to the new address. */
export function requestEmailChange(newEmail: string) {
  return apiRequest<null>('/api/auth/changeemail', { method: 'PUT', json: { newEmail } })
}
