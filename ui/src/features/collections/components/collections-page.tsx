import { Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { ManagedCollectionGrid } from '@/components/collection/managed-collection-grid'
import { PageContainer } from '@/components/page-container'
import { VerifiedOnlyToggle } from '@/components/moderation/verified-only-toggle'
import { SearchBox } from '@/components/search-box'
import { SortMenu } from '@/components/sort-menu'
import type { CollectionSortBy } from '@/lib/collection/browse-collections'
import type { TranslationKey } from '@/lib/i18n'

/** The sort menu: each entry a server sort key and order. The server puts empty collections last. */
export const COLLECTION_SORTS = [
  { id: 'newest', labelKey: 'collections.sort.newest', sortBy: 'DATE', orderBy: 0 },
  { id: 'items', labelKey: 'collections.sort.items', sortBy: 'ITEMS', orderBy: 0 },
  { id: 'liked', labelKey: 'collections.sort.liked', sortBy: 'POPULARITY', orderBy: 0 },
  { id: 'name', labelKey: 'collections.sort.name', sortBy: 'TITLE', orderBy: 1 },
] as const satisfies readonly { id: string; labelKey: TranslationKey; sortBy: CollectionSortBy; orderBy: 0 | 1 }[]

/** The grid's sort and search as the URL holds them (`sort`, `search`; defaults left out). */
export function collectionsFilter(params: URLSearchParams) {
  const sort = COLLECTION_SORTS.find((s) => s.id === params.get('sort')) ?? COLLECTION_SORTS[0]
  return { sort, search: (params.get('search') ?? '').trim(), verifiedOnly: params.get('verified') === '1' }
}

/**
 * /collections: every collection as a card, infinite; those with NFTs to show first (newest by
 * default), a sort menu and a title search, both kept in the URL.
 */
export function CollectionsPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const { sort, search, verifiedOnly } = collectionsFilter(params)
  useEffect(() => {
    document.title = `${t('collections.title')} | ${t('app.name')}`
  }, [t])
  const set = (key: string, value: string, fallback: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous)
        if (value && value !== fallback) next.set(key, value)
        else next.delete(key)
        return next
      },
      { replace: key === 'search' },
    )
  return (
    <PageContainer>
      <Stack gap="2" mb="6">
        <Heading as="h1" size="3xl">
          {t('collections.title')}
        </Heading>
        <Text color="fg.muted">{t('collections.subtitle')}</Text>
      </Stack>
      <Flex gap="3" direction={{ base: 'column', md: 'row' }} justify="space-between" mb="6">
        <SearchBox
          value={search}
          onChange={(text) => set('search', text, '')}
          placeholder={t('collections.searchPlaceholder')}
          testId="collections-search"
        />
        <HStack gap="3" flexWrap="wrap">
          <VerifiedOnlyToggle value={verifiedOnly} onChange={(on) => set('verified', on ? '1' : '', '')} />
          <SortMenu
            value={sort.id}
            options={COLLECTION_SORTS}
            onChange={(id) => set('sort', id, COLLECTION_SORTS[0].id)}
            testId="collections-sort"
          />
        </HStack>
      </Flex>
      <ManagedCollectionGrid
        detailPath={(id) => `/collections/collection/${encodeURIComponent(id)}`}
        emptyText={t('collections.empty')}
        sortBy={sort.sortBy}
        orderBy={sort.orderBy}
        search={search}
        verifiedOnly={verifiedOnly}
      />
    </PageContainer>
  )
}
