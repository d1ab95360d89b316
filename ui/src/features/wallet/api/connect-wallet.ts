import { mutate } from 'swr'
import { apiRequest } from '@/lib/api-client'
import type { WalletType } from '@/lib/wallet-store'
import { MY_PROFILE_KEY } from '@/lib/use-user'

export type ConnectWalletInput = { walletProvider: WalletType; walletAddress: string; message: string; signature: string }

/** PUT /api/account/connectwallet: links the wallet, proven by the signed SIWE message. Revalidates my profile. */
export async function connectWallet(input: ConnectWalletInput) {
  const result = await apiRequest<unknown>('/api/account/connectwallet', { method: 'PUT', json: input })
  await mutate(MY_PROFILE_KEY)
  return result
}
