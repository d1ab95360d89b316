import type { UserProfile } from '@/lib/auth'
import type { WalletType } from '@/lib/wallet-store'

/**
 * The locally stored wallet type and address must match one of the wallets the server says are
 * linked to the account; otherwise the local data was tampered with and wallet actions are off.
 */
export function walletMatchesProfile(
  stored: { walletType: WalletType | null; walletAddress: string | null },
  profile: Pick<UserProfile, 'connectedWallet'> | null | undefined,
): boolean {
  if (!stored.walletType || !stored.walletAddress || !profile) return false
  const address = stored.walletAddress.toLowerCase()
  return (profile.connectedWallet ?? []).some(
    (w) => w.walletProvider === stored.walletType && w.walletAddress.toLowerCase() === address,
  )
}
