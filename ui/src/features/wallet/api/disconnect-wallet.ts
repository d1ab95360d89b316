import { mutate } from 'swr'
import { apiRequest } from '@/lib/api-client'
import { MY_PROFILE_KEY } from '@/lib/use-user'

/** PUT /api/account/disconnectwallet {walletAddress}: unlinks the wallet from the account. */
export async function disconnectWallet(walletAddress: string) {
  const result = await apiRequest<unknown>('/api/account/disconnectwallet', { method: 'PUT', json: { walletAddress } })
  await mutate(MY_PROFILE_KEY)
  return result
}
