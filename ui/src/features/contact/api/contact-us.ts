import { apiRequest } from '@/lib/api-client'

export type ContactMessage = { name: string; email: string; subject: string; message: string }

/** POST /api/misc/contactus (JSON); the message is shown in a toast. */
export function sendContactMessage(input: ContactMessage) {
  return apiRequest<null>('/api/misc/contactus', { method: 'POST', json: input })
}
