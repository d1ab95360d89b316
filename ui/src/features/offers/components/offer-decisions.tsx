import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { ConfirmDialog } from '@/components/nft/confirm-dialog'
import { formatMatic, formatWeiMatic } from '@/lib/format'
import { type Offer, offererName, offerProceedsWei, royaltyBps } from '@/lib/offers/api'
import type { useOfferActions } from '@/lib/offers/actions'
import type { Nft } from '@/lib/nft/types'

export type OfferDecision = 'accept' | 'reject' | 'cancel'
type Pending = { kind: OfferDecision; offer: Offer; nft: Pick<Nft, 'currentOwner' | 'royalty'> | null }

/**
 * The spec's confirmation before accepting or rejecting an offer ("After Confirmation you cannot
 * undo the Action"), naming the amount and the offerer; and one before withdrawing one's own.
 * `ask` opens it; `dialog` is to be rendered; confirming runs the action.
 */
export function useOfferDecisions(actions: ReturnType<typeof useOfferActions>, onDone?: (kind: OfferDecision, ok: boolean) => void) {
  const { t, i18n } = useTranslation()
  const [pending, setPending] = useState<Pending | null>(null)
  const ask = (kind: OfferDecision, offer: Offer, nft: Pick<Nft, 'currentOwner' | 'royalty'> | null) => {
    // Owner actions need the owner's wallet: the guard says so (or opens the wallet dialog) before
    // the question; until the NFT is loaded its owner is unknown, so nothing happens.
    if (kind !== 'cancel' && (!nft || !actions.guard({ ownerAddress: nft.currentOwner?.ownerAddress ?? null }))) return
    if (kind === 'cancel' && !actions.guard()) return
    setPending({ kind, offer, nft })
  }
  const run = async ({ kind, offer, nft }: Pending) => {
    const outcome =
      kind === 'cancel' ? await actions.cancel(offer) : nft ? await (kind === 'accept' ? actions.accept(offer, nft) : actions.reject(offer, nft)) : undefined
    onDone?.(kind, !!outcome?.ok)
  }
  const amount = pending ? formatMatic(pending.offer.amount, i18n.resolvedLanguage, { exact: true }) : ''
  const name = pending ? offererName(pending.offer) : ''
  // What the seller receives, as the accept will require it (minProceeds).
  const net = pending?.kind === 'accept' && pending.nft ? acceptProceedsText(pending.offer, pending.nft.royalty ?? [], t, i18n.resolvedLanguage) : ''
  const texts = {
    accept: {
      title: t('offers.acceptTitle'),
      text: net ? `${t('offers.confirmAccept', { amount, name })} ${net}` : t('offers.confirmAccept', { amount, name }),
      label: t('offers.acceptAmount', { amount }),
    },
    reject: { title: t('offers.rejectTitle'), text: t('offers.confirmReject', { amount, name }), label: t('trade.reject') },
    cancel: { title: t('offers.cancelTitle'), text: t('offers.confirmCancel', { amount }), label: t('offers.cancelConfirm') },
  }
  const text = texts[pending?.kind ?? 'accept']
  const dialog = (
    <ConfirmDialog
      open={!!pending}
      title={text.title}
      text={text.text}
      confirmLabel={text.label}
      danger={pending?.kind !== 'accept'}
      onConfirm={() => {
        if (pending) void run(pending)
      }}
      onClose={() => setPending(null)}
    />
  )
  return { ask, dialog }
}

/** "You receive {net} after the {fee}% service fee and {royalties}% royalties." for `offer`. */
function acceptProceedsText(offer: Offer, royalty: Nft['royalty'], t: TFunction, language?: string) {
  const percent = (bps: bigint) => (Number(bps) / 100).toLocaleString(language)
  const royalties = royalty.reduce((sum, row) => sum + royaltyBps(row), 0n)
  return t('offers.acceptProceeds', {
    net: formatWeiMatic(offerProceedsWei(offer, royalty), language, { rounding: 'down' }),
    fee: percent(BigInt(offer.feeBps)),
    royalties: percent(royalties),
  })
}
