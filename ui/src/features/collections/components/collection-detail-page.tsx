import { Box, Button, Flex, HStack, Image, Stack, Tabs, Tag, Text } from '@chakra-ui/react'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuArrowLeft } from 'react-icons/lu'
import { useLocation, useNavigate, useParams } from 'react-router'
import { HeroArt } from '@/components/hero-art'
import { CollectionStatsPanel } from '@/components/insight/collection-stats-panel'
import { ActivityList } from '@/features/activity/components/activity-list'
import { DEFAULT_FILTER, type ItemFilter, ItemFilters } from '@/components/item-filters'
import { NftGrid } from '@/components/nft'
import { TraitFacets } from '@/components/traits/trait-facets'
import { useTraitFilter } from '@/lib/traits/trait-filter'
import { PageContainer } from '@/components/page-container'
import { notify } from '@/components/ui/toaster'
import { ApiError, errorMessage } from '@/lib/api-client'
import { useCollectionById } from '@/lib/collection/collection-by-id'
import { IMAGE_SIZES, loadingHints, useImageSources } from '@/lib/image-sources'
import { fetchNftPage, PAGE_SIZE } from '@/lib/nft/api'
import { usePagedList } from '@/lib/nft/use-paged-list'
import { useLiveChanges, useLiveTopic } from '@/lib/live/live-store'
import type { Change } from '@/lib/live/stream'
import { RemovedPage } from '@/components/moderation/removed-page'
import { TargetMenu } from '@/components/moderation/target-menu'
import { VerifiedBadge } from '@/components/moderation/verified-badge'
import { useSession } from '@/lib/auth'
import { useStanding } from '@/lib/moderation/api'

export const browseByCollectionPath = (id: string) => `/api/nft/browsebycollection/${encodeURIComponent(id)}`

/**
 * The collection detail (/collection/{id}, /collections/collection/{id},
 * /myprofile/collection/{id}, /user/{uid}/collection/{id}): a Back button (to the page before,
 * or /collections when the collection was opened directly), a chip with the title ('fetching...'
 * until it is known), and the collection's fixed-price NFTs, 9 a
 * page, infinite. The cards' menu offers only Remove from Collection here. Beside them, the
 * Activity tab: the feed of the collection's NFTs.
 */
export function CollectionDetailPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  // 'default': the first page of this visit (a link from elsewhere, a reload): nothing to go back to here.
  const cameFromThisSite = useLocation().key !== 'default'
  const { id = '' } = useParams()
  const collection = useCollectionById(id)
  const [filter, setFilter] = useState<ItemFilter>(DEFAULT_FILTER)
  const traits = useTraitFilter().params
  useEffect(() => {
    // A hidden collection (451) gets its own page, not a toast.
    if (collection.error && !(collection.error instanceof ApiError && collection.error.statuscode === 451)) {
      notify('error', errorMessage(collection.error, t('collections.loadFailed')))
    }
  }, [collection.error, t])
  useEffect(() => {
    if (collection.data?.title) document.title = `${collection.data.title} | ${t('app.name')}`
  }, [collection.data?.title, t])
  const list = usePagedList(
    id ? browseByCollectionPath(id) : null,
    {
      limit: PAGE_SIZE,
      formOfSale: 'FIXEDPRICE',
      sortBy: filter.sortBy,
      orderBy: filter.orderBy,
      search: filter.search.trim() || undefined,
      trait: traits.length ? traits : undefined,
    },
    fetchNftPage,
    {
      onError: (error) => {
        console.error('Could not load the collection', error)
        notify('error', errorMessage(error, t('collections.loadFailed')))
      },
    },
  )
  // Its members' changes (a new price, a listing, a sale that takes one out) as they happen.
  useLiveTopic(id ? `collection:${id}` : null)
  const { refresh } = list
  useLiveChanges(
    useCallback((change: Change) => {
      if (change.nfts.some((n) => n.collections?.includes(id))) void refresh()
    }, [id, refresh]),
  )
  const data = collection.data
  const me = useSession((s) => s.user?.userId)
  const { data: standing } = useStanding('collection', id || null)
  const verified = standing ? standing.verified : !!data?.verified
  const image = useImageSources(data?.image, IMAGE_SIZES.avatar, 240)
  if (collection.error instanceof ApiError && collection.error.statuscode === 451) {
    return <RemovedPage kind="collection" targetId={id} message={collection.error.message} />
  }
  return (
    <PageContainer>
      <Button variant="ghost" size="sm" borderRadius="full" ms="-3" mb="3" color="fg.muted" onClick={() => (cameFromThisSite ? navigate(-1) : navigate('/collections'))} data-testid="collection-back">
        <LuArrowLeft aria-hidden />
        {t('collections.back')}
      </Button>
      <Flex direction={{ base: 'column', md: 'row' }} gap={{ base: '4', md: '6' }} align={{ base: 'flex-start', md: 'center' }} mb="8">
        <Box boxSize={{ base: '20', md: '24' }} borderRadius="2xl" overflow="hidden" bg="navy.900" flexShrink="0" boxShadow="card">
          {data?.image ? <Image {...image} {...loadingHints(true)} alt={data.title} w="100%" h="100%" objectFit="cover" /> : <HeroArt />}
        </Box>
        <Stack gap="2" minW="0" flex="1">
          <HStack gap="2" minW="0">
            <Tag.Root size="xl" borderRadius="full" colorPalette="brand" variant="subtle" w="fit-content" maxW="full" minW="0" px="4" py="2" data-testid="collection-chip">
              <Tag.Label as="h1" fontSize={{ base: 'lg', md: 'xl' }} fontWeight="bold">
                {data?.title ?? t('collections.fetching')}
              </Tag.Label>
            </Tag.Root>
            <VerifiedBadge verified={verified} size={22} />
          </HStack>
          {data?.creator?.username ? (
            <Text color="fg.muted" fontSize="sm">
              {t('collections.by')} @{data.creator.username}
            </Text>
          ) : null}
        </Stack>
        {data && id ? (
          <Box alignSelf={{ base: 'flex-start', md: 'center' }}>
            <TargetMenu kind="collection" targetId={id} name={data.title} own={!!me && data.creator?.userId === me} verified={verified} />
          </Box>
        ) : null}
      </Flex>
      {id ? (
        <Box mb="8">
          <CollectionStatsPanel collectionId={id} />
        </Box>
      ) : null}
      <Tabs.Root defaultValue="items" variant="line" colorPalette="brand" lazyMount>
        <Tabs.List mb="6">
          <Tabs.Trigger value="items" data-testid="collection-tab-items">
            {t('collections.tabs.items')}
          </Tabs.Trigger>
          <Tabs.Trigger value="activity" data-testid="collection-tab-activity">
            {t('collections.tabs.activity')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="items" pt="0">
          <ItemFilters value={filter} onChange={setFilter} placeholder={t('collections.search')} showSaleType={false} rarity />
          <Flex direction={{ base: 'column', lg: 'row' }} gap="6" align={{ base: 'stretch', lg: 'flex-start' }}>
            <TraitFacets scope={id ? { scope: 'collection', collectionId: id, formOfSale: 'FIXEDPRICE', search: filter.search.trim() || undefined } : null} />
            <Box flex="1" minW="0">
              <NftGrid list={list} empty={t('collections.noNfts')} collectionId={id} />
            </Box>
          </Flex>
        </Tabs.Content>
        <Tabs.Content value="activity" pt="0">
          <ActivityList scope={{ collectionId: id }} />
        </Tabs.Content>
      </Tabs.Root>
    </PageContainer>
  )
}
