import { apiRequest } from '@/lib/api-client'

/** GET /api/account/walletnonce (bearer): a one-time nonce for the Sign-In-with-Ethereum message. */
export async function fetchWalletNonce(): Promise<string> {
  const { body } = await apiRequest<{ nonce: string }>('/api/account/walletnonce')
  return body.nonce
}
