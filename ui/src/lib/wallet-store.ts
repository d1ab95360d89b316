import { create } from 'zustand'
import { siteStorage } from './site-storage'
import { createJSONStorage, persist } from 'zustand/middleware'

/** The provider names the server knows for a linked wallet. */
export type WalletType = 'Metamask' | 'Coinbase' | 'Other'

type WalletState = {
  /** Wallet type saved locally once the server accepted the link; null when none. */
  walletType: WalletType | null
  walletAddress: string | null
  /** The wagmi connector used, to reconnect the same wallet on load. */
  connectorId: string | null
  /** Whether the wallet chooser dialog is open (any screen may ask for it). */
  dialogOpen: boolean
  /** The address the screen that opened the dialog needs (an NFT's owner), if any: the dialog offers it first. */
  wantedAddress: string | null
  setWallet: (wallet: { walletType: WalletType; walletAddress: string; connectorId: string }) => void
  clearWallet: () => void
  openDialog: (wantedAddress?: string) => void
  closeDialog: () => void
}

export const useWalletStore = create<WalletState>()(
  persist(
    (set) => ({
      walletType: null,
      walletAddress: null,
      connectorId: null,
      dialogOpen: false,
      wantedAddress: null,
      setWallet: (wallet) => set({ ...wallet }),
      clearWallet: () => set({ walletType: null, walletAddress: null, connectorId: null }),
      openDialog: (wantedAddress) => set({ dialogOpen: true, wantedAddress: wantedAddress ?? null }),
      closeDialog: () => set({ dialogOpen: false }),
    }),
    {
      name: 'wallet',
      storage: createJSONStorage(() => siteStorage),
      partialize: (s) => ({ walletType: s.walletType, walletAddress: s.walletAddress, connectorId: s.connectorId }),
    },
  ),
)
