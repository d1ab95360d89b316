/**
 * Offers and the cart (issue 20): the API's offer shape, the offer lists (an NFT's, mine, the
 * ones on what I own) and the record calls after each offer or cart transaction.
 */
import useSWR, { useSWRConfig } from 'swr'
import { apiRequest } from '@/lib/api-client'
import type { Nft, NftRoyalty, Paged } from '@/lib/nft/types'

/** ACTIVE (acceptable until its expiry), EXPIRED (active but past it: only withdrawable), or closed. */
export type OfferState = 'ACTIVE' | 'ACCEPTED' | 'REJECTED' | 'CANCELLED' | 'EXPIRED'
export const OFFER_STATES: OfferState[] = ['ACTIVE', 'ACCEPTED', 'REJECTED', 'CANCELLED', 'EXPIRED']

/** One offer, as `GET /api/nft/{nftId}/offers`, `/api/myoffers` and `/api/myoffers/received` answer it. */
export type Offer = {
  id: number
  /** `{chainId}-{tokenId}`. */
  nftId: string
  offererAddress: string
  offererUserId: string | null
  offererUsername: string | null
  /** MATIC. */
  amount: string
  /** The same in wei: what `acceptOfferFrom` must name. */
  amountWei: string
  expiresAt: string
  expiresAtUnix: number
  feeBps: number
  state: OfferState
  replaced: number
  nftBurned: boolean
  /** The owner can accept it now. */
  acceptable: boolean
  /** Its offerer can still cancel it for a refund (active or expired). */
  withdrawable: boolean
  seller: string | null
  transactionHash: string
  createdAt: string
  updatedAt: string
  closedAt: string | null
}

/** Offer lists load 10 at a time. */
export const OFFER_PAGE_SIZE = 10
export const MY_OFFERS_PATH = '/api/myoffers'
export const RECEIVED_OFFERS_PATH = '/api/myoffers/received'
export const nftOffersPath = (nftId: string) => `/api/nft/${encodeURIComponent(nftId)}/offers`

/** One page of any offer list (`query.state`: a state, or ALL). */
export async function fetchOffers(path: string, query: Record<string, string | number | undefined>): Promise<Paged<Offer>> {
  return (await apiRequest<Paged<Offer>>(path, { query })).body
}

/** The token id of an NFT id (`{chainId}-{tokenId}`). */
export function tokenIdOf(nftId: string): bigint {
  return BigInt(nftId.slice(nftId.lastIndexOf('-') + 1))
}

/** Basis points in 100%, as the contract counts fee and royalty shares. */
const BPS = 10_000n

/** A royalty row's share in basis points: the API's `bps`, else from its percentage (2.5 -> 250). */
export const royaltyBps = (royalty: Pick<NftRoyalty, 'percentage' | 'bps'>) => BigInt(royalty.bps ?? Math.round(royalty.percentage * 100))

/**
 * What the seller receives when `offer` is accepted: its amount less the offer's fee (the fee of the
 * moment it was made) and each royalty row, each rounded down as the contract's split does. The
 * accept names it as `minProceeds`, so a sale that would pay the seller less reverts.
 */
export function offerProceedsWei(offer: Pick<Offer, 'amountWei' | 'feeBps'>, royalty: Pick<NftRoyalty, 'percentage' | 'bps'>[]): bigint {
  const amount = BigInt(offer.amountWei)
  let proceeds = amount - (amount * BigInt(offer.feeBps)) / BPS
  for (const row of royalty) proceeds -= (amount * royaltyBps(row)) / BPS
  return proceeds
}

/** Who made an offer, as rows name them: the username, else the short address. */
export function offererName(offer: Pick<Offer, 'offererUsername' | 'offererAddress'>): string {
  const a = offer.offererAddress ?? ''
  return offer.offererUsername || (a.length > 10 ? `${a.slice(0, 6)}...${a.slice(-4)}` : a)
}

/** Whether `offer` was made from one of `addresses` (the signed-in user's linked wallets). */
export function isMine(offer: Pick<Offer, 'offererAddress'>, addresses: string[]): boolean {
  const a = offer.offererAddress.toLowerCase()
  return addresses.some((m) => m.toLowerCase() === a)
}

export type OfferRecorded = { offer: Offer | null; nftData: Nft | null }

type OfferRecord = { nftid: string; transactionHash: string; amount?: string; offerer?: string }
const recordOffer = (kind: 'make' | 'cancel' | 'accept' | 'reject', json: OfferRecord) =>
  apiRequest<OfferRecorded>(`/api/nft/offer/${kind}`, { method: 'POST', json })

/** POST /api/nft/offer/make once makeOffer is confirmed (`amount` in MATIC, as offered). */
export const recordMakeOffer = (nftId: string, amount: string, transactionHash: string) => recordOffer('make', { nftid: nftId, amount, transactionHash })
/** POST /api/nft/offer/cancel once cancelOffer is confirmed. */
export const recordCancelOffer = (nftId: string, transactionHash: string) => recordOffer('cancel', { nftid: nftId, transactionHash })
/** POST /api/nft/offer/accept once acceptOfferFrom is confirmed. */
export const recordAcceptOffer = (nftId: string, offerer: string, transactionHash: string) => recordOffer('accept', { nftid: nftId, offerer, transactionHash })
/** POST /api/nft/offer/reject once rejectOfferFrom is confirmed. */
export const recordRejectOffer = (nftId: string, offerer: string, transactionHash: string) => recordOffer('reject', { nftid: nftId, offerer, transactionHash })

/** An item of a recorded cart: bought (now the caller's) or skipped (sold or repriced meanwhile). */
export type CartLine = { nftId: string; price: string; priceWei: string; seenPrice?: string; nftData: Nft | null }
export type CartRecorded = { bought: CartLine[]; skipped: CartLine[]; spent: string; refunded: string }

/** POST /api/nft/cart/purchase once buyTokens is confirmed. */
export async function recordCartPurchase(transactionHash: string): Promise<CartRecorded> {
  return (await apiRequest<CartRecorded>('/api/nft/cart/purchase', { method: 'POST', json: { transactionHash } })).body
}

/** Revalidates every cached offer list (the NFT's own calls are revalidated by the trade itself). */
export function useRevalidateOffers() {
  const { mutate } = useSWRConfig()
  return () => mutate((key) => isOfferKey(key), undefined, { revalidate: true })
}

/** The viewer's open offer on an NFT (active or expired, still escrowed), from the NFT's offers. */
export function useMyOpenOffer(nftId: string | undefined, addresses: string[]) {
  const swr = useSWR(nftId && addresses.length ? ['my-open-offer', nftOffersPath(nftId)] : null, ([, path]: readonly [string, string]) =>
    fetchOffers(path, { limit: 100 }),
  { revalidateOnFocus: false, shouldRetryOnError: false })
  const offer = swr.data?.data.find((o) => o.withdrawable && isMine(o, addresses)) ?? null
  return { offer, mutate: swr.mutate }
}

/**
 * Whether an swr key holds offers: of the NFT `nftId` (its Offers tab, the viewer's open offer),
 * or, without it, any offer list (mine, received, an NFT's). For the live stream's refetches.
 */
export function isOfferKey(key: unknown, nftId?: string): boolean {
  const text = Array.isArray(key) ? key.map(String).join(' ') : typeof key === 'string' ? key : ''
  return nftId ? text.includes(nftOffersPath(nftId)) : text.includes('/offers') || text.includes(MY_OFFERS_PATH)
}
