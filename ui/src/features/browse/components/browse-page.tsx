import { Box, Button, Flex, Heading, HStack, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { NftGrid } from '@/components/nft'
import { notify } from '@/components/ui/toaster'
import { PageContainer } from '@/components/page-container'
import { VerifiedOnlyToggle } from '@/components/moderation/verified-only-toggle'
import { SearchBox } from '@/components/search-box'
import { SortMenu } from '@/components/sort-menu'
import { TraitFacets } from '@/components/traits/trait-facets'
import { useTraitFilter } from '@/lib/traits/trait-filter'
import { errorMessage } from '@/lib/api-client'
import { EXPLORE_PATH, exploreQuery, fetchNftPage, useCategories } from '@/lib/nft/api'
import { categoryLabel } from '@/lib/nft/category'
import type { FormOfSale, Nft } from '@/lib/nft/types'
import { usePagedList } from '@/lib/nft/use-paged-list'
import { useLiveTopic } from '@/lib/live/live-store'
import { SORT_OPTIONS, sortOptions, useBrowseFilter } from '../hooks/use-browse-filter'

function CategoryBar({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const { t } = useTranslation()
  const { data, isLoading, error } = useCategories()
  useEffect(() => {
    if (!error) return
    console.error('Could not load the categories', error)
    notify('error', errorMessage(error, t('browse.loadFailed')))
  }, [error, t])
  const all = [{ id: 'all', categoryName: t('browse.all') }, ...(data ?? [])]
  return (
    <HStack gap="2" overflowX="auto" pb="1" css={{ scrollbarWidth: 'thin' }} data-testid="category-bar" role="tablist">
      {all.map((c) => (
        <Button
          key={c.id}
          size="sm"
          borderRadius="full"
          flexShrink={0}
          role="tab"
          aria-selected={value === c.id}
          variant={value === c.id ? 'solid' : 'outline'}
          colorPalette={value === c.id ? 'brand' : 'gray'}
          onClick={() => onChange(c.id)}
        >
          {c.id === 'all' ? c.categoryName : categoryLabel(t, c)}
        </Button>
      ))}
      {isLoading && Array.from({ length: 4 }, (_, i) => <Skeleton key={i} h="8" w="20" borderRadius="full" flexShrink={0} />)}
    </HStack>
  )
}

/**
 * /explore (FIXEDPRICE) and /auction (AUCTION): category bar, sort menu, search, and the infinite
 * grid of GET /api/nft/explore/ (9 a page). Category, sort, order and search live in the URL.
 */
export function BrowsePage({ formOfSale }: { formOfSale: Extract<FormOfSale, 'FIXEDPRICE' | 'AUCTION'> }) {
  const { t } = useTranslation()
  const { filter, update, sortId } = useBrowseFilter(formOfSale)
  const traits = useTraitFilter().params
  useLiveTopic('market')
  const list = usePagedList<Nft, ReturnType<typeof exploreQuery>>(EXPLORE_PATH, exploreQuery({ ...filter, traits }, 1), fetchNftPage, {
    liveId: (nft) => nft._id,
    onError: (error) => {
      console.error('Could not load the NFT list', error)
      notify('error', errorMessage(error, t('browse.loadFailed')))
    },
  })
  const auction = formOfSale === 'AUCTION'

  useEffect(() => {
    window.scrollTo({ top: 0 })
  }, [formOfSale])
  useEffect(() => {
    document.title = `${t(auction ? 'browse.auctionTitle' : 'browse.exploreTitle')} | ${t('app.name')}`
  }, [auction, t])

  return (
    <PageContainer>
      <Stack gap="6">
        <Stack gap="1">
          <Heading size={{ base: '2xl', md: '3xl' }}>{t(auction ? 'browse.auctionTitle' : 'browse.exploreTitle')}</Heading>
          <Text color="fg.muted">{t(auction ? 'browse.auctionSubtitle' : 'browse.exploreSubtitle')}</Text>
        </Stack>
        <CategoryBar value={filter.category} onChange={(category) => update({ category })} />
        <Flex gap="3" direction={{ base: 'column', md: 'row' }} justify="space-between">
          <SearchBox value={filter.search} onChange={(search) => update({ search })} placeholder={t('browse.searchPlaceholder')} />
          <HStack gap="3" flexWrap="wrap">
            <VerifiedOnlyToggle value={!!filter.verifiedOnly} onChange={(verifiedOnly) => update({ verifiedOnly })} />
            <SortMenu
              value={sortId}
              options={sortOptions(formOfSale)}
              onChange={(id) => {
                const option = SORT_OPTIONS.find((o) => o.id === id) ?? SORT_OPTIONS[0]
                update({ sortBy: option.sortBy, orderBy: option.orderBy })
              }}
            />
          </HStack>
        </Flex>
        <Flex direction={{ base: 'column', lg: 'row' }} gap="6" align={{ base: 'stretch', lg: 'flex-start' }}>
          <TraitFacets
            scope={{ scope: 'explore', formOfSale, nftCategory: filter.category !== 'all' ? filter.category : undefined, search: filter.search.trim() || undefined }}
          />
          <Box flex="1" minW="0">
            <NftGrid list={list} empty={t('browse.empty')} />
          </Box>
        </Flex>
      </Stack>
    </PageContainer>
  )
}
