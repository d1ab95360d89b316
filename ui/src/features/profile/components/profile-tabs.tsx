import { Badge, Box, Button, Flex, Tabs } from '@chakra-ui/react'
import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuPlus } from 'react-icons/lu'
import { useSearchParams } from 'react-router'
import { useSWRConfig } from 'swr'
import { CollectionDialog } from '@/components/collection/collection-dialog'
import { ManagedCollectionGrid } from '@/components/collection/managed-collection-grid'
import { NftGrid } from '@/components/nft'
import { TraitFacets } from '@/components/traits/trait-facets'
import { useTraitFilter } from '@/lib/traits/trait-filter'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { fetchNftPage, PAGE_SIZE } from '@/lib/nft/api'
import { usePagedList } from '@/lib/nft/use-paged-list'
import { useLiveTopic } from '@/lib/live/live-store'
import { collectionsTotalKey, profileCountsKey, useCollectionsTotal, useProfileCounts } from '../api/profile-counts'
import { DEFAULT_FILTER, type ItemFilter, ItemFilters } from '@/components/item-filters'
import { ActivityList } from '@/features/activity/components/activity-list'

export const PROFILE_TABS = ['collections', 'created', 'owned', 'inAuction', 'inSale', 'activity'] as const
export type ProfileTab = (typeof PROFILE_TABS)[number]
type NftTab = Exclude<ProfileTab, 'collections' | 'activity'>

/**
 * Which call lists a tab's NFTs: the signed-in user's own calls on /myprofile, the public ones
 * (by user id) elsewhere. Owned, In Auction and In Sale are the owned list filtered by sale type;
 * Created is filtered by the tab's sale-type filter.
 */
export function nftSource(tab: NftTab, own: boolean, userId: string, saleType: ItemFilter['saleType']) {
  const id = encodeURIComponent(userId)
  if (tab === 'created') return { path: own ? '/api/nft/mycreatednft' : `/api/nft/usercreatednft/${id}`, formOfSale: saleType }
  const formOfSale = tab === 'owned' ? 'ALL' : tab === 'inAuction' ? 'AUCTION' : 'FIXEDPRICE'
  return { path: own ? '/api/nft/mynftartwork' : `/api/nft/usersnftartwork/${id}`, formOfSale }
}

function NftTabPanel({ tab, own, userId, filter, refreshKey }: { tab: NftTab; own: boolean; userId: string; filter: ItemFilter; refreshKey: number }) {
  const { t } = useTranslation()
  const { path, formOfSale } = nftSource(tab, own, userId, filter.saleType)
  const traits = useTraitFilter().params
  useLiveTopic('market')
  const search = filter.search.trim() || undefined
  const list = usePagedList(
    path,
    {
      limit: PAGE_SIZE,
      formOfSale,
      sortBy: filter.sortBy,
      orderBy: filter.orderBy,
      search,
      trait: traits.length ? traits : undefined,
      refresh: refreshKey || undefined,
    },
    (p, q) => {
      // `refresh` only makes a new list key (a reload from page 1); the server is not sent it.
      const { refresh: _refresh, ...query } = q
      return fetchNftPage(p, query)
    },
    {
      liveId: (nft) => nft._id,
      onError: (error) => {
        console.error('Could not load the profile list', error)
        notify('error', errorMessage(error, t('common.genericError')))
      },
    },
  )
  return (
    <Flex direction={{ base: 'column', lg: 'row' }} gap="6" align={{ base: 'stretch', lg: 'flex-start' }}>
      <TraitFacets scope={userId ? { scope: tab === 'created' ? 'created' : 'owned', userId, formOfSale, search } : null} />
      <Box flex="1" minW="0">
        <NftGrid list={list} empty={t('profileTabs.noNfts')} />
      </Box>
    </Flex>
  )
}

/**
 * The item tabs under a profile header: Collections (with Create on the own profile), Created,
 * Owned, In Auction and In Sale, each with its total. Only the active tab loads; changing the
 * search, sort, order, sale filter or the refresh flag reloads it from page 1. The active tab is
 * kept in the URL (`?tab=`), so going back from an NFT returns to it.
 */
export function ProfileTabs({ userId, own, defaultTab = 'collections' }: { userId: string; own: boolean; defaultTab?: ProfileTab }) {
  const { t } = useTranslation()
  const { mutate } = useSWRConfig()
  const [params, setParams] = useSearchParams()
  const requested = params.get('tab') as ProfileTab | null
  const tab: ProfileTab = requested && PROFILE_TABS.includes(requested) ? requested : defaultTab
  const [filter, setFilter] = useState<ItemFilter>(DEFAULT_FILTER)
  const [refreshKey, setRefreshKey] = useState(0)
  const [creating, setCreating] = useState(false)
  const counts = useProfileCounts(userId)
  // The collection count comes from the collection list when the NFT counts lack it (or failed).
  const collectionsTotal = useCollectionsTotal(userId, counts.data ? counts.data.collections === undefined : !!counts.error)

  const select = (next: string) => {
    // Each tab opens with its own fresh search and sort: a search typed for Created would
    // otherwise silently filter Owned too.
    setFilter(DEFAULT_FILTER)
    const copy = new URLSearchParams(params)
    copy.set('tab', next)
    copy.delete('trait')
    setParams(copy, { replace: true })
  }
  const onFilter = useCallback((next: ItemFilter) => setFilter(next), [])
  const refresh = () => {
    setRefreshKey((k) => k + 1)
    void mutate(profileCountsKey(userId))
    void mutate(collectionsTotalKey(userId))
  }
  const total = (key: ProfileTab) =>
    key === 'activity' ? undefined : (key === 'collections' ? (counts.data?.collections ?? collectionsTotal.data) : counts.data?.[key])
  const collectionPath = (id: string) => (own ? `/myprofile/collection/${encodeURIComponent(id)}` : `/user/${encodeURIComponent(userId)}/collection/${encodeURIComponent(id)}`)

  return (
    <Box mt={{ base: '8', md: '10' }}>
      <Tabs.Root value={tab} onValueChange={(e) => select(e.value)} variant="line" colorPalette="brand" lazyMount unmountOnExit>
        <Box overflowX="auto" mb="6" css={{ scrollbarWidth: 'none' }}>
          {/* On a phone the five tabs wrap onto two rows: scrolled, the last ones hid off-screen. */}
          <Tabs.List minW={{ base: 'auto', md: 'max-content' }} flexWrap={{ base: 'wrap', md: 'nowrap' }}>
            {PROFILE_TABS.map((key) => (
              <Tabs.Trigger key={key} value={key} data-testid={`tab-${key}`}>
                {t(`profileTabs.tabs.${key}`)}
                {total(key) !== undefined ? (
                  <Badge variant="subtle" colorPalette={tab === key ? 'brand' : 'gray'} borderRadius="full" data-testid={`total-${key}`}>
                    {total(key)}
                  </Badge>
                ) : null}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Box>
        <Tabs.Content value="collections" pt="0">
          {own ? (
            <Flex justify="flex-end" mb="6">
              <Button colorPalette="brand" borderRadius="full" onClick={() => setCreating(true)}>
                <LuPlus /> {t('profileTabs.createCollection')}
              </Button>
            </Flex>
          ) : null}
          <ManagedCollectionGrid userId={userId} ownProfile={own} detailPath={collectionPath} emptyText={t('profileTabs.noCollections')} refreshKey={refreshKey} />
        </Tabs.Content>
        {PROFILE_TABS.filter((key): key is NftTab => key !== 'collections' && key !== 'activity').map((key) => (
          <Tabs.Content key={key} value={key} pt="0">
            <ItemFilters value={filter} onChange={onFilter} placeholder={t(`profileTabs.searchPlaceholder.${key}`)} showSaleType={key === 'created'} />
            <NftTabPanel tab={key} own={own} userId={userId} filter={filter} refreshKey={refreshKey} />
          </Tabs.Content>
        ))}
        <Tabs.Content value="activity" pt="0">
          <ActivityList scope={{ userId }} />
        </Tabs.Content>
      </Tabs.Root>
      {own ? <CollectionDialog open={creating} onClose={() => setCreating(false)} onSaved={refresh} /> : null}
    </Box>
  )
}
