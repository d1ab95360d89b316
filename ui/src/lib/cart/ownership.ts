import { useSession } from '@/lib/auth'
import { ownerAddress } from '@/lib/nft/format'
import type { Nft } from '@/lib/nft/types'

/** Whether the signed-in user owns `nft` (by account, or by one of their linked wallets). */
export function ownsNft(nft: Pick<Nft, 'currentOwner'>, userId: string | undefined, addresses: string[]): boolean {
  if (userId && nft.currentOwner?.userId === userId) return true
  const owner = ownerAddress(nft)
  return !!owner && addresses.some((a) => a.toLowerCase() === owner)
}

/** {@link ownsNft} bound to the session. */
export function useOwnsNft() {
  const user = useSession((s) => s.user)
  const addresses = (user?.connectedWallet ?? []).map((w) => w.walletAddress)
  return (nft: Pick<Nft, 'currentOwner'>) => ownsNft(nft, user?.userId, addresses)
}
