import { useEffect } from 'react'
import { useSession } from '@/lib/auth'
import { APP_CHAIN_ID } from '@/lib/chains'
import { useUser } from '@/lib/use-user'
import { useConnectionState } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { walletMatchesProfile } from '../tampering'

/**
 * Whether wallet actions are allowed: a connected wallet whose locally stored type and address
 * match a wallet linked to the profile. A mismatch (tampered local data) is logged.
 */
export function useWalletActions() {
  const { user } = useUser()
  const { address, chainId, status } = useConnectionState()
  const walletType = useWalletStore((s) => s.walletType)
  const walletAddress = useWalletStore((s) => s.walletAddress)
  const connected = status === 'connected' && !!address
  const stored = !!walletType && !!walletAddress
  // Judge only against the profile the server just sent, not a possibly stale local copy.
  const profileLoaded = useSession((s) => s.userFresh) && !!user?.email
  const matches = walletMatchesProfile({ walletType, walletAddress }, user)
  const sameAddress = !!address && !!walletAddress && address.toLowerCase() === walletAddress.toLowerCase()
  const tampered = stored && profileLoaded && (!matches || (connected && !sameAddress))

  useEffect(() => {
    if (tampered) console.error('Wallet data does not match the wallets linked to this account; wallet actions are disabled.')
  }, [tampered])

  const wrongNetwork = connected && chainId !== APP_CHAIN_ID
  return {
    connected,
    address,
    tampered,
    wrongNetwork,
    enabled: connected && stored && matches && sameAddress,
    /** Why a chain action (buy, bid, create) may not run now, as a translation key; null when it may. */
    blockedReasonKey: tampered ? 'wallet.tampered' : wrongNetwork ? 'wallet.differentNetwork' : null,
    /** Owner actions need the connected wallet to be the owner's: 'wallet.differentWallet' otherwise. */
    ownerMismatchKey: (ownerAddress: string | null | undefined) =>
      !address || !ownerAddress || address.toLowerCase() !== ownerAddress.toLowerCase() ? 'wallet.differentWallet' : null,
  }
}
