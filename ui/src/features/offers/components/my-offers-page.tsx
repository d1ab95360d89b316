import { Button, Center, Heading, HStack, Link, Skeleton, Stack, Tabs, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useSearchParams } from 'react-router'
import { NftThumb } from '@/components/nft/nft-thumb'
import { nftPath } from '@/components/nft/nft-card'
import { PageContainer } from '@/components/page-container'
import { useNftDetail } from '@/lib/nft/api'
import { nftTitle } from '@/lib/nft/format'
import { usePagedList, useSentinel } from '@/lib/nft/use-paged-list'
import { useOfferActions } from '@/lib/offers/actions'
import { fetchOffers, MY_OFFERS_PATH, OFFER_PAGE_SIZE, OFFER_STATES, type Offer, type OfferState, offererName, RECEIVED_OFFERS_PATH, tokenIdOf } from '@/lib/offers/api'
import { type OfferDecision, useOfferDecisions } from './offer-decisions'
import { OfferRow } from './offer-row'
import { ListEnd } from '@/components/list-end'

export type OffersView = 'made' | 'received'

/** The NFT an offer is for (its image and title, linking to it) and, on offers received, who offered. */
function OfferItem({ offer, view, onDecide }: { offer: Offer; view: OffersView; onDecide: (kind: OfferDecision, offer: Offer, nft: ReturnType<typeof useNftDetail>['data'] | null) => void }) {
  const { t } = useTranslation()
  const { data: nft, error } = useNftDetail(offer.nftBurned ? undefined : offer.nftId)
  const title = nft ? nftTitle(nft) : `#${tokenIdOf(offer.nftId).toString()}`
  const gone = offer.nftBurned || !!error
  const lead = (
    <HStack gap="3" minW="0">
      <NftThumb file={nft?.file} title={title} />
      <Stack gap="0.5" minW="0">
        {gone ? (
          <Text fontWeight="semibold" truncate>
            {title} · {t('offers.burned')}
          </Text>
        ) : (
          <Link asChild fontWeight="semibold">
            <RouterLink to={nftPath({ _id: offer.nftId, formOfSale: nft?.formOfSale ?? 'NOT_FOR_SALE' })}>
              <Text as="span" truncate>
                {title}
              </Text>
            </RouterLink>
          </Link>
        )}
        {view === 'received' && (
          <Text fontSize="xs" color="fg.muted" truncate>
            {t('offers.from', { name: offererName(offer) })}
          </Text>
        )}
      </Stack>
    </HStack>
  )
  return (
    <OfferRow
      offer={offer}
      role={{ owner: view === 'received', mine: view === 'made' }}
      lead={lead}
      onAccept={() => onDecide('accept', offer, nft ?? null)}
      onReject={() => onDecide('reject', offer, nft ?? null)}
      onCancel={() => onDecide('cancel', offer, nft ?? null)}
    />
  )
}

function OfferList({ view, state }: { view: OffersView; state: OfferState | 'ALL' }) {
  const { t } = useTranslation()
  const list = usePagedList<Offer>(view === 'made' ? MY_OFFERS_PATH : RECEIVED_OFFERS_PATH, { limit: OFFER_PAGE_SIZE, state }, fetchOffers, {
    onError: (error) => console.error('Could not load my offers', error),
  })
  const actions = useOfferActions()
  const decisions = useOfferDecisions(actions, (_kind, ok) => {
    if (ok) void list.refresh()
  })
  const sentinel = useSentinel(list.loadMore, !list.loadingFirst && !list.done && !list.error, list.items.length)
  if (list.loadingFirst) {
    return (
      <Stack gap="3" data-testid="my-offers-loading">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} h="16" borderRadius="lg" />
        ))}
      </Stack>
    )
  }
  if (list.items.length === 0) {
    return (
      <Center py="16" data-testid="my-offers-empty">
        <Text color="fg.muted" fontSize="lg" fontWeight="semibold">
          {view === 'made' ? t('offers.emptyMade') : t('offers.emptyReceived')}
        </Text>
      </Center>
    )
  }
  return (
    <Stack gap="2" data-testid="my-offers">
      {list.items.map((offer) => (
        <OfferItem key={offer.id} offer={offer} view={view} onDecide={(kind, o, nft) => decisions.ask(kind, o, nft ?? null)} />
      ))}
      <ListEnd sentinel={sentinel} loading={list.loadingMore} />
      {decisions.dialog}
    </Stack>
  )
}

/**
 * /myoffers: the offers I made (cancel or withdraw them) and, under "Offers received", the
 * offers on what I own (accept or reject them); each filtered by state. `?tab=received&state=ACTIVE`.
 */
export function MyOffersPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const view: OffersView = params.get('tab') === 'received' ? 'received' : 'made'
  const raw = (params.get('state') ?? 'ALL').toUpperCase()
  const state = (OFFER_STATES as string[]).includes(raw) ? (raw as OfferState) : 'ALL'
  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params)
    for (const [key, value] of Object.entries(changes)) {
      if (value === 'ALL' || value === 'made') next.delete(key)
      else next.set(key, value)
    }
    setParams(next, { replace: true })
  }
  return (
    <PageContainer>
      <Stack gap="5">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          {t('offers.myOffers')}
        </Heading>
        <Tabs.Root value={view} onValueChange={(e) => set({ tab: e.value })} variant="line">
          <Tabs.List>
            <Tabs.Trigger value="made" data-testid="offers-made-tab">
              {t('offers.madeTab')}
            </Tabs.Trigger>
            <Tabs.Trigger value="received" data-testid="offers-received-tab">
              {t('offers.received')}
            </Tabs.Trigger>
          </Tabs.List>
        </Tabs.Root>
        <HStack gap="2" wrap="wrap" role="group" aria-label={t('offers.filter')} data-testid="offer-state-filter">
          {(['ALL', ...OFFER_STATES] as const).map((value) => (
            <Button
              key={value}
              size="sm"
              borderRadius="full"
              flexShrink={0}
              variant={state === value ? 'solid' : 'outline'}
              colorPalette={state === value ? 'brand' : 'gray'}
              aria-pressed={state === value}
              onClick={() => set({ state: value })}
              data-testid={`offer-filter-${value}`}
            >
              {value === 'ALL' ? t('offers.all') : t(`offers.state.${value}`)}
            </Button>
          ))}
        </HStack>
        <OfferList key={`${view}-${state}`} view={view} state={state} />
      </Stack>
    </PageContainer>
  )
}
