import { Button, Heading, HStack, Stack, Text } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuBookmark, LuGavel } from 'react-icons/lu'
import { useSearchParams } from 'react-router'
import { DEFAULT_FILTER, type ItemFilter, ItemFilters } from '@/components/item-filters'
import { NftGrid } from '@/components/nft'
import { PageContainer } from '@/components/page-container'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { fetchNftPage, PAGE_SIZE } from '@/lib/nft/api'
import { usePagedList } from '@/lib/nft/use-paged-list'
import { useLiveTopic } from '@/lib/live/live-store'

/** The two lists: fixed-price bookmarks and auction bookmarks. */
export const FAVOURITE_TYPES = { 'nft-bookmark': 'FIXEDPRICE', 'auction-bookmark': 'AUCTION' } as const
export type FavouriteType = keyof typeof FAVOURITE_TYPES
export const BOOKMARKED_PATH = '/api/nft/browsebookmarked'

/**
 * /favourites?type=nft-bookmark|auction-bookmark (login required): the signed-in user's
 * bookmarks of one sale type, 9 a page, infinite, with search, sort and order; 'no data' when
 * empty. The two tab buttons switch the `type` in the URL.
 */
export function FavouritesPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const type: FavouriteType = params.get('type') === 'auction-bookmark' ? 'auction-bookmark' : 'nft-bookmark'
  const [filter, setFilter] = useState<ItemFilter>(DEFAULT_FILTER)
  useEffect(() => {
    document.title = `${t('favourites.title')} | ${t('app.name')}`
  }, [t])
  useLiveTopic('market')
  const list = usePagedList(
    BOOKMARKED_PATH,
    { limit: PAGE_SIZE, formOfSale: FAVOURITE_TYPES[type], sortBy: filter.sortBy, orderBy: filter.orderBy, search: filter.search.trim() || undefined },
    fetchNftPage,
    {
      liveId: (nft) => nft._id,
      onError: (error) => {
        console.error('Could not load the bookmarks', error)
        notify('error', errorMessage(error, t('common.genericError')))
      },
    },
  )
  const choose = (next: FavouriteType) => setParams({ type: next }, { replace: true })
  return (
    <PageContainer>
      <Stack gap="2" mb="6">
        <Heading as="h1" size="3xl">
          {t('favourites.title')}
        </Heading>
        <Text color="fg.muted">{t('favourites.subtitle')}</Text>
      </Stack>
      <HStack gap="3" mb="6" role="tablist">
        <Button role="tab" aria-selected={type === 'nft-bookmark'} borderRadius="full" variant={type === 'nft-bookmark' ? 'solid' : 'outline'} colorPalette="brand" onClick={() => choose('nft-bookmark')}>
          <LuBookmark /> {t('favourites.nftTab')}
        </Button>
        <Button role="tab" aria-selected={type === 'auction-bookmark'} borderRadius="full" variant={type === 'auction-bookmark' ? 'solid' : 'outline'} colorPalette="brand" onClick={() => choose('auction-bookmark')}>
          <LuGavel /> {t('favourites.auctionTab')}
        </Button>
      </HStack>
      <ItemFilters value={filter} onChange={setFilter} placeholder={t('favourites.search')} showSaleType={false} />
      <NftGrid list={list} empty={t('favourites.noData')} />
    </PageContainer>
  )
}
