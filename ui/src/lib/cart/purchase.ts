/**
 * The cart's purchase: the items' current state (sold meanwhile, repriced, one's own), and one
 * `buyTokens` transaction with each price the buyer sees, then the record call, which names what
 * was bought and what the contract skipped.
 */
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import useSWR from 'swr'
import { parseEther } from 'viem'
import { ApiError, apiRequest } from '@/lib/api-client'
import { formatMatic } from '@/lib/format'
import { buyValueWei } from '@/lib/nft/actions'
import { nftDetailKey } from '@/lib/nft/api'
import { DETAIL_MESSAGE_DURATION, useTrade } from '@/lib/nft/trade'
import type { Nft } from '@/lib/nft/types'
import { type CartRecorded, recordCartPurchase, useRevalidateOffers } from '@/lib/offers/api'
import { useOwnsNft } from './ownership'
import { type CartItem, useCartStore } from './store'

/** Why an item cannot be bought now. */
export type Unavailable = 'sold' | 'burned' | 'mine'

/** An item as the drawer shows it: the NFT now, and what the buyer would pay. */
export type CartLineNow = {
  item: CartItem
  nft: Nft | null
  /** null when it can be bought. */
  unavailable: Unavailable | null
  /** The price now (MATIC) and in wei: what `buyTokens` is told the buyer saw. */
  price: string
  priceWei: bigint
  /** The price went up or down since it was added. */
  repriced: boolean
}

async function fetchNow(nftId: string): Promise<Nft | null> {
  try {
    return (await apiRequest<Nft>(nftDetailKey(nftId))).body
  } catch (error) {
    if (error instanceof ApiError && error.statuscode === 404) return null
    throw error
  }
}

function itemWei(item: CartItem): bigint {
  if (/^\d+$/.test(item.priceWei)) return BigInt(item.priceWei)
  try {
    return parseEther(item.price || '0')
  } catch {
    return 0n
  }
}

/** Every cart item as it is now (each NFT's detail, read again whenever the drawer opens). */
export function useCartLines(items: CartItem[], active: boolean) {
  const owns = useOwnsNft()
  const ids = items.map((i) => i.nftId)
  const swr = useSWR(active && ids.length ? ['cart-lines', ...ids] : null, async ([, ...list]: string[]) => Promise.all(list.map(fetchNow)), {
    revalidateOnFocus: true,
    revalidateOnMount: true,
    shouldRetryOnError: false,
    keepPreviousData: true,
    onError: (error) => console.error('Could not load the cart items', error),
  })
  const lines: CartLineNow[] = items.map((item) => {
    const found = swr.data ? swr.data[ids.indexOf(item.nftId)] : undefined
    if (found === undefined) return { item, nft: null, unavailable: null, price: item.price, priceWei: itemWei(item), repriced: false }
    if (found === null) return { item, nft: null, unavailable: 'burned', price: item.price, priceWei: itemWei(item), repriced: false }
    const unavailable: Unavailable | null = owns(found) ? 'mine' : found.formOfSale !== 'FIXEDPRICE' ? 'sold' : null
    const priceWei = unavailable ? itemWei(item) : buyValueWei(found)
    return { item, nft: found, unavailable, price: unavailable ? item.price : String(found.fixedPrice), priceWei, repriced: !unavailable && priceWei !== itemWei(item) }
  })
  const available = lines.filter((l) => !l.unavailable)
  const totalWei = available.reduce((sum, l) => sum + l.priceWei, 0n)
  return { lines, available, totalWei, loading: !swr.data && swr.isLoading, refresh: () => swr.mutate() }
}

/**
 * The one message of a cart's purchase: what was bought, by title, and what was not (with what
 * came back); a warning when something was not bought. (The live notices of the same
 * transaction are not toasted again: see `lib/nft/own-transactions.ts`.)
 */
export function cartOutcome(t: TFunction, recorded: CartRecorded, titles: Map<string, string>, lng?: string): { kind: 'success' | 'warning'; text: string } {
  const names = (lines: CartRecorded['bought']) => lines.map((l) => l.nftData?.title || titles.get(l.nftId) || l.nftId).join(', ')
  const parts: string[] = []
  if (recorded.bought.length) parts.push(t('cart.boughtList', { count: recorded.bought.length, titles: names(recorded.bought) }))
  if (recorded.skipped.length) {
    parts.push(t('cart.notBought', { count: recorded.skipped.length, titles: names(recorded.skipped), amount: formatMatic(recorded.refunded, lng, { exact: true }) }))
  }
  return { kind: recorded.skipped.length ? 'warning' : 'success', text: parts.join(' ') }
}

/** Buys `lines` in one transaction; resolves to what the server recorded, or null. */
export function useCartPurchase() {
  const { t, i18n } = useTranslation()
  const trade = useTrade()
  const revalidateOffers = useRevalidateOffers()
  const removeMany = useCartStore((s) => s.removeMany)
  return async (lines: CartLineNow[]): Promise<CartRecorded | null> => {
    if (!lines.length) return null
    const titles = new Map(lines.map((l) => [l.item.nftId, l.nft?.title || l.item.title]))
    const outcome = await trade.run({
      call: {
        functionName: 'buyTokens',
        args: [lines.map((l) => BigInt(l.item.tokenId)), lines.map((l) => l.priceWei)],
        value: lines.reduce((sum, l) => sum + l.priceWei, 0n),
      },
      progress: t('cart.buying', { count: lines.length }),
      recording: t('trade.almostThere'),
      record: (hash) => recordCartPurchase(hash),
      success: (recorded) => cartOutcome(t, recorded as CartRecorded, titles, i18n.resolvedLanguage),
      failure: t('cart.buyFailed'),
      preferServerMessage: true,
      nftId: lines[0].item.nftId,
      duration: DETAIL_MESSAGE_DURATION,
    })
    if (!outcome.ok) return null
    const recorded = outcome.recorded as CartRecorded
    removeMany(recorded.bought.map((b) => b.nftId))
    void revalidateOffers()
    return recorded
  }
}
