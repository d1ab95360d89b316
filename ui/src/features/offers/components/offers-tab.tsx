import { Box, Button, Center, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { usePagedList } from '@/lib/nft/use-paged-list'
import type { Nft } from '@/lib/nft/types'
import { fetchOffers, isMine, nftOffersPath, OFFER_PAGE_SIZE, type Offer } from '@/lib/offers/api'
import type { useOfferActions } from '@/lib/offers/actions'
import { useOfferDecisions } from './offer-decisions'
import { OfferRow } from './offer-row'

/**
 * The NFT page's Offers tab: its offers, newest first, 10 a page (amount, who, state, expires
 * in). The owner accepts (naming the amount) or rejects; an offerer cancels their own, or
 * withdraws it once expired; each behind a confirmation. It follows the NFT's live changes.
 */
export function OffersTab({ nft, isOwner, myAddresses, actions }: { nft: Nft; isOwner: boolean; myAddresses: string[]; actions: ReturnType<typeof useOfferActions> }) {
  const { t } = useTranslation()
  // Every change of the NFT (an offer made, replaced, cancelled, rejected or accepted, a sale)
  // reloads its offers, the first one on an empty list too.
  const list = usePagedList<Offer>(nftOffersPath(nft._id), { limit: OFFER_PAGE_SIZE }, fetchOffers, {
    onError: (error) => console.error('Could not load the offers', error),
    liveNft: nft._id,
  })
  const decisions = useOfferDecisions(actions)

  if (list.loadingFirst) {
    return (
      <Stack gap="3" data-testid="offers-loading">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} h="14" borderRadius="lg" />
        ))}
      </Stack>
    )
  }
  if (list.items.length === 0) {
    return (
      <Center py="8" data-testid="offers-empty">
        <Text color="fg.muted">{t('nft.noData')}</Text>
      </Center>
    )
  }
  return (
    <Stack gap="2" data-testid="offers-list">
      {list.items.map((offer) => (
        <OfferRow
          key={offer.id}
          offer={offer}
          role={{ owner: isOwner, mine: isMine(offer, myAddresses) }}
          onAccept={() => decisions.ask('accept', offer, nft)}
          onReject={() => decisions.ask('reject', offer, nft)}
          onCancel={() => decisions.ask('cancel', offer, nft)}
        />
      ))}
      {!list.done && (
        <Box textAlign="center">
          <Button variant="ghost" size="sm" loading={list.loadingMore} onClick={list.loadMore}>
            {t('offers.more')}
          </Button>
        </Box>
      )}
      {decisions.dialog}
    </Stack>
  )
}
