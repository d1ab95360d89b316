/**
 * The trade actions on one NFT (buy, bid, accept / reject the top bid, stop sale, burn), each the
 * spec's flow through {@link useTrade}: the card's owner menu and the detail page share them.
 */
import { useTranslation } from 'react-i18next'
import { parseEther } from 'viem'
import { apiRequest } from '@/lib/api-client'
import { nftDetailKey, recordBid, recordBurn, recordPurchase, recordStopSale } from './api'
import { ownerAddress } from './format'
import { DETAIL_MESSAGE_DURATION, SALE_TYPE, useTrade } from './trade'
import type { Nft } from './types'

/** The price a buyer pays in wei: the fixed price, or an auction's buy-now price. */
export function buyValueWei(nft: Pick<Nft, 'fixedPrice' | 'fixedPriceWei'>): bigint {
  if (nft.fixedPriceWei && /^\d+$/.test(nft.fixedPriceWei)) return BigInt(nft.fixedPriceWei)
  return parseEther(String(nft.fixedPrice || '0'))
}

/** `options.onDetailPage` keeps the snackbars 600000 ms, as the detail page does. */
export function useNftActions(nft: Nft | undefined, { onDetailPage = false }: { onDetailPage?: boolean } = {}) {
  const { t } = useTranslation()
  const trade = useTrade()
  const duration = onDetailPage ? DETAIL_MESSAGE_DURATION : undefined
  const tokenId = nft ? BigInt(nft.nftTokenId) : 0n
  const owner = nft ? ownerAddress(nft) : ''

  const buy = () =>
    nft &&
    trade.run({
      call: { functionName: 'buyToken', args: [tokenId], value: buyValueWei(nft) },
      progress: t('trade.buying'),
      recording: t('trade.almostThere'),
      record: (hash) => recordPurchase(nft, hash),
      success: t('trade.bought'),
      failure: t('trade.buyFailed'),
      preferServerMessage: true,
      nftId: nft._id,
      duration,
    })

  /** `amount` in MATIC, as typed. */
  const bid = (amount: string) =>
    nft &&
    trade.run({
      call: { functionName: 'bid', args: [tokenId], value: parseEther(amount) },
      progress: t('trade.bidding'),
      recording: t('trade.almostThere'),
      record: (hash) => recordBid(nft, amount, hash),
      success: t('trade.bidded'),
      failure: t('trade.bidFailed'),
      nftId: nft._id,
      duration,
    })

  /** Accepts or rejects the top bid; no record call: waits until the detail shows the outcome. */
  const answerOffer = (accept: boolean) => {
    if (!nft) return undefined
    const before = { owner, bid: nft.currentAuction?.auctionHighestBid ?? nft.highestBid }
    return trade.run({
      ownerAddress: owner,
      call: { functionName: 'acceptOffer', args: [tokenId, accept] },
      progress: accept ? t('trade.accepting') : t('trade.rejecting'),
      recording: t('trade.almostThere'),
      waitFor: async () => {
        const { body } = await apiRequest<Nft>(nftDetailKey(nft._id))
        if (accept) return ownerAddress(body) !== before.owner
        return (body.currentAuction?.auctionHighestBid ?? body.highestBid) !== before.bid
      },
      success: accept ? t('trade.accepted') : t('trade.rejected'),
      failure: accept ? t('trade.acceptFailed') : t('trade.rejectFailed'),
      nftId: nft._id,
      duration,
    })
  }

  const stopSale = () =>
    nft &&
    trade.run({
      ownerAddress: owner,
      call: { functionName: 'toggleForSale', args: [tokenId, SALE_TYPE.NotForSale, 0n, 0n, 0n] },
      progress: t('trade.stoppingSale'),
      recording: t('trade.almostThere'),
      record: (hash) => recordStopSale(nft._id, hash),
      success: t('trade.saleStopped'),
      failure: t('trade.stopSaleFailed'),
      nftId: nft._id,
      duration,
    })

  const burn = () =>
    nft &&
    trade.run({
      ownerAddress: owner,
      call: { functionName: 'burn', args: [tokenId] },
      progress: t('trade.burning'),
      recording: t('trade.almostThere'),
      record: (hash) => recordBurn(nft._id, hash),
      success: t('trade.burned'),
      failure: t('trade.burnFailed'),
      nftId: nft._id,
      duration,
    })

  return { buy, bid, answerOffer, stopSale, burn, guard: trade.guard, address: trade.address }
}
