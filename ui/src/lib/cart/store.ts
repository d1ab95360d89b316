/**
 * The cart: fixed-price NFTs a buyer collects to buy in one transaction (`buyTokens`). Kept in
 * local storage ('cart', through siteStorage), so it survives reloads; the drawer's open state is not kept.
 */
import { create } from 'zustand'
import { siteStorage } from '../site-storage'
import { createJSONStorage, persist } from 'zustand/middleware'
import type { Nft } from '@/lib/nft/types'

/** The contract's `MAX_CART_ITEMS`: one transaction buys at most 20 NFTs. */
export const MAX_CART_ITEMS = 20

/** An NFT in the cart, as it was when added (the drawer shows it as it is now). */
export type CartItem = {
  nftId: string
  tokenId: string
  title: string
  file: string
  /** MATIC, as the card showed it. */
  price: string
  /** The same in wei (decimal string). */
  priceWei: string
}

type CartState = {
  items: CartItem[]
  open: boolean
  /** Adds `nft` (once); false when the cart is full. */
  add: (nft: Pick<Nft, '_id' | 'nftTokenId' | 'title' | 'file' | 'fixedPrice' | 'fixedPriceWei'>) => boolean
  remove: (nftId: string) => void
  /** Removes every listed NFT (after a purchase). */
  removeMany: (nftIds: string[]) => void
  clear: () => void
  setOpen: (open: boolean) => void
}

/** What a cart item holds of an NFT. */
export function cartItemOf(nft: Pick<Nft, '_id' | 'nftTokenId' | 'title' | 'file' | 'fixedPrice' | 'fixedPriceWei'>): CartItem {
  return {
    nftId: nft._id,
    tokenId: nft.nftTokenId,
    title: nft.title || `#${nft.nftTokenId}`,
    file: nft.file,
    price: String(nft.fixedPrice ?? '0'),
    priceWei: nft.fixedPriceWei ?? '',
  }
}

export const useCartStore = create<CartState>()(
  persist(
    (set, get) => ({
      items: [],
      open: false,
      add: (nft) => {
        const { items } = get()
        if (items.some((i) => i.nftId === nft._id)) return true
        if (items.length >= MAX_CART_ITEMS) return false
        set({ items: [...items, cartItemOf(nft)] })
        return true
      },
      remove: (nftId) => set({ items: get().items.filter((i) => i.nftId !== nftId) }),
      removeMany: (nftIds) => set({ items: get().items.filter((i) => !nftIds.includes(i.nftId)) }),
      clear: () => set({ items: [] }),
      setOpen: (open) => set({ open }),
    }),
    { name: 'cart', storage: createJSONStorage(() => siteStorage), partialize: (s) => ({ items: s.items }) },
  ),
)

/** Whether the NFT is in the cart. */
export const useInCart = (nftId: string) => useCartStore((s) => s.items.some((i) => i.nftId === nftId))
