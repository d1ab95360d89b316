/**
 * The offer flows, each through {@link useTrade} as every trade is: make (or replace) an offer,
 * cancel (withdraw) one's own, and the owner's accept (naming the amount seen and the least it
 * receives, as the contract requires) and reject. Each ends with the record call and the spec's kind of messages.
 */
import { useTranslation } from 'react-i18next'
import { parseEther } from 'viem'
import { formatMatic } from '@/lib/format'
import { ownerAddress } from '@/lib/nft/format'
import { DETAIL_MESSAGE_DURATION, useTrade } from '@/lib/nft/trade'
import type { Nft } from '@/lib/nft/types'
import { type Offer, offerProceedsWei, recordAcceptOffer, recordCancelOffer, recordMakeOffer, recordRejectOffer, tokenIdOf, useRevalidateOffers } from './api'

/** `options.onDetailPage` keeps the snackbars 600000 ms, as the detail page does. */
export function useOfferActions({ onDetailPage = false }: { onDetailPage?: boolean } = {}) {
  const { t, i18n } = useTranslation()
  const trade = useTrade()
  const revalidate = useRevalidateOffers()
  const duration = onDetailPage ? DETAIL_MESSAGE_DURATION : undefined
  const after = async <T,>(outcome: T) => {
    await revalidate()
    return outcome
  }

  /** Offers `amount` MATIC (as typed) until `expiresAt`; replaces the caller's live offer, if any. */
  const make = async (nft: Pick<Nft, '_id' | 'nftTokenId'>, amount: string, expiresAt: Date) =>
    after(
      await trade.run({
        call: { functionName: 'makeOffer', args: [BigInt(nft.nftTokenId), BigInt(Math.floor(expiresAt.getTime() / 1000))], value: parseEther(amount) },
        progress: t('offers.making'),
        recording: t('trade.almostThere'),
        record: (hash) => recordMakeOffer(nft._id, amount, hash),
        success: t('offers.made'),
        failure: t('offers.makeFailed'),
        preferServerMessage: true,
        nftId: nft._id,
        duration,
      }),
    )

  /** Withdraws the caller's offer (active or expired); its amount goes back to the wallet. */
  const cancel = async (offer: Offer) =>
    after(
      await trade.run({
        call: { functionName: 'cancelOffer', args: [tokenIdOf(offer.nftId)] },
        progress: t('offers.cancelling'),
        recording: t('trade.almostThere'),
        record: (hash) => recordCancelOffer(offer.nftId, hash),
        success: t('offers.cancelled', { amount: formatMatic(offer.amount, i18n.resolvedLanguage, { exact: true }) }),
        failure: t('offers.cancelFailed'),
        preferServerMessage: true,
        nftId: offer.nftId,
        duration,
      }),
    )

  /**
   * The owner accepts `offer` at the amount they saw and for at least the net they were shown (the
   * amount less the offer's fee and the royalties): a changed offer, or one whose sale would pay
   * the seller less, makes the transaction fail.
   */
  const accept = async (offer: Offer, nft: Pick<Nft, 'currentOwner' | 'royalty'>) =>
    after(
      await trade.run({
        ownerAddress: ownerAddress(nft),
        call: {
          functionName: 'acceptOfferFrom',
          args: [tokenIdOf(offer.nftId), offer.offererAddress, BigInt(offer.amountWei), offerProceedsWei(offer, nft.royalty ?? [])],
        },
        progress: t('offers.accepting'),
        recording: t('trade.almostThere'),
        record: (hash) => recordAcceptOffer(offer.nftId, offer.offererAddress, hash),
        success: t('offers.accepted'),
        failure: t('trade.acceptFailed'),
        nftId: offer.nftId,
        duration,
      }),
    )

  /** The owner rejects `offer` (expired or not); the offerer is refunded. */
  const reject = async (offer: Offer, nft: Pick<Nft, 'currentOwner'>) =>
    after(
      await trade.run({
        ownerAddress: ownerAddress(nft),
        call: { functionName: 'rejectOfferFrom', args: [tokenIdOf(offer.nftId), offer.offererAddress] },
        progress: t('offers.rejecting'),
        recording: t('trade.almostThere'),
        record: (hash) => recordRejectOffer(offer.nftId, offer.offererAddress, hash),
        success: t('offers.rejected'),
        failure: t('trade.rejectFailed'),
        nftId: offer.nftId,
        duration,
      }),
    )

  return { make, cancel, accept, reject, guard: trade.guard, address: trade.address }
}
