import { Box, Button, Center, chakra, Flex, Heading, HStack, Image, Link as ChakraLink, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { LuArrowDown, LuArrowUp, LuArrowUpDown } from 'react-icons/lu'
import { Link, useSearchParams } from 'react-router'
import { Amount } from '@/components/amount'
import { HeroArt } from '@/components/hero-art'
import { formatShare } from '@/components/insight/collection-stats-panel'
import { PageContainer } from '@/components/page-container'
import { HorizontalScroll } from '@/components/scroll-hint'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { CURRENCY, formatCount, localeTag } from '@/lib/format'
import { IMAGE_SIZES, useImageSources } from '@/lib/image-sources'
import { PERIODS, type Period, type RankedCollection, STATS_SORTS, type StatsSort, useCollectionRanking } from '@/lib/insight/api'
import { useSentinel } from '@/lib/nft/use-paged-list'
import { ListEnd } from '@/components/list-end'
import type { TranslationKey } from '@/lib/i18n'

// Plain table elements styled here: Chakra's table recipe would add to the theme every first visit loads.
const Tr = chakra('tr', { base: { borderBottomWidth: '1px', borderColor: 'border.muted', _last: { borderBottomWidth: '0' } } })
const Th = chakra('th', { base: { px: '3', py: '2', fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted', bg: 'bg.subtle', _last: { pe: '4' } } })
const Td = chakra('td', { base: { px: '3', py: '2', fontSize: 'sm', verticalAlign: 'middle', _last: { pe: '4' } } })

/** The columns, in order, with the ranking's sort each one asks for. */
const COLUMNS: { sort: StatsSort; key: TranslationKey; numeric: boolean }[] = [
  { sort: 'TITLE', key: 'insight.collection', numeric: false },
  { sort: 'VOLUME', key: 'insight.volume', numeric: true },
  { sort: 'CHANGE', key: 'insight.change', numeric: true },
  { sort: 'FLOOR', key: 'insight.floor', numeric: true },
  { sort: 'SALES', key: 'insight.sales', numeric: true },
  { sort: 'OWNERS', key: 'insight.owners', numeric: true },
  { sort: 'ITEMS', key: 'insight.items', numeric: true },
  { sort: 'LISTED', key: 'insight.listed', numeric: true },
]

/** The URL's choice, or the default (24 hours, by volume, highest first). */
export function readChoice(params: URLSearchParams): { period: Period; sort: StatsSort; ascending: boolean } {
  const period = PERIODS.find((p) => p === params.get('period')) ?? '24H'
  const sort = STATS_SORTS.find((s) => s === params.get('sort')) ?? 'VOLUME'
  const order = params.get('order')
  return { period, sort, ascending: order ? order === 'asc' : sort === 'TITLE' }
}

/** A percentage change with its sign ("+12.5%", "−3%"), or a dash when there is none. */
function Change({ value }: { value: number | null }) {
  const { i18n } = useTranslation()
  if (value === null) return <Text as="span" color="fg.subtle">—</Text>
  const text = new Intl.NumberFormat(localeTag(i18n.resolvedLanguage), { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(value / 100)
  return (
    <Text as="span" color={value > 0 ? 'green.fg' : value < 0 ? 'red.fg' : 'fg.muted'} fontWeight="semibold">
      {text}
    </Text>
  )
}

function Thumb({ row }: { row: RankedCollection }) {
  const image = useImageSources(row.image, IMAGE_SIZES.avatar)
  return (
    <Box boxSize={{ base: '8', md: '10' }} borderRadius="lg" overflow="hidden" bg="navy.900" flexShrink="0">
      {row.image ? <Image {...image} loading="lazy" alt="" w="100%" h="100%" objectFit="cover" /> : <HeroArt />}
    </Box>
  )
}

function Row({ row }: { row: RankedCollection }) {
  const { i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  return (
    <Tr data-testid="stats-row" _hover={{ bg: 'bg.muted' }}>
      <Td color="fg.muted" w="10" px="2" textAlign="center">
        {formatCount(row.rank, lng)}
      </Td>
      <Td minW={{ base: '170px', md: '240px' }}>
        <HStack gap="3" minW="0">
          <Thumb row={row} />
          <ChakraLink asChild fontWeight="semibold" color="fg" lineClamp={2} minW="0">
            <Link to={`/collection/${encodeURIComponent(row.collectionId)}`} data-testid="stats-title">
              {row.title}
            </Link>
          </ChakraLink>
        </HStack>
      </Td>
      <Td textAlign="end" data-testid="stats-volume">
        <Amount value={row.volume} suffix={CURRENCY} fontWeight="semibold" />
      </Td>
      <Td textAlign="end" data-testid="stats-change">
        <Change value={row.change} />
      </Td>
      <Td textAlign="end" data-testid="stats-floor">
        {row.floorPrice === null ? <Text as="span" color="fg.subtle">—</Text> : <Amount value={row.floorPrice} suffix={CURRENCY} />}
      </Td>
      <Td textAlign="end" data-testid="stats-sales">{formatCount(row.sales, lng)}</Td>
      <Td textAlign="end" data-testid="stats-owners">{formatCount(row.owners, lng)}</Td>
      <Td textAlign="end" data-testid="stats-items">{formatCount(row.items, lng)}</Td>
      <Td textAlign="end" data-testid="stats-listed">{formatShare(row.listedShare, lng)}</Td>
    </Tr>
  )
}

/**
 * /stats: the collections ranked by floor, volume, its change, sales, owners, items or the share
 * listed over the last 24 hours, 7 days, 30 days or all time; a column's header sorts by it (again:
 * the other way). The choice is kept in the URL; 20 rows a page, more as the list scrolls.
 */
export function StatsPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const { period, sort, ascending } = readChoice(params)
  const list = useCollectionRanking(period, sort, ascending, (error) => {
    console.error('Could not load the collection statistics', error)
    notify('error', errorMessage(error, t('common.genericError')))
  })
  const sentinel = useSentinel(list.loadMore, !list.loadingFirst && !list.done && !list.error, list.items.length)
  useEffect(() => {
    document.title = `${t('insight.title')} | ${t('app.name')}`
  }, [t])
  const choose = (next: { period?: Period; sort?: StatsSort; ascending?: boolean }) => {
    const chosen = { period, sort, ascending, ...next }
    setParams({ period: chosen.period, sort: chosen.sort, order: chosen.ascending ? 'asc' : 'desc' }, { replace: true })
  }
  const sortBy = (column: StatsSort) => {
    // The same column again turns the order around; another starts highest first (titles A to Z).
    if (column === sort) choose({ ascending: !ascending })
    else choose({ sort: column, ascending: column === 'TITLE' })
  }
  const periodLabel = (p: Period) => t(`insight.periods.${p}`)
  return (
    <PageContainer>
      <Flex direction={{ base: 'column', md: 'row' }} justify="space-between" align={{ base: 'stretch', md: 'flex-end' }} gap="4" mb="6">
        <Stack gap="2">
          <Heading as="h1" size="3xl">
            {t('insight.title')}
          </Heading>
          <Text color="fg.muted">{t('insight.subtitle')}</Text>
        </Stack>
        <HStack gap="1" role="group" aria-label={t('insight.period')} bg="bg.muted" p="1" borderRadius="lg" alignSelf={{ base: 'flex-start', md: 'auto' }}>
          {PERIODS.map((p) => (
            <Button
              key={p}
              size="sm"
              variant={p === period ? 'solid' : 'ghost'}
              colorPalette={p === period ? 'brand' : 'gray'}
              aria-pressed={p === period}
              onClick={() => choose({ period: p })}
              data-testid={`period-${p}`}
            >
              {periodLabel(p)}
            </Button>
          ))}
        </HStack>
      </Flex>
      {list.loadingFirst ? (
        <Stack gap="2">
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} h="14" borderRadius="lg" />
          ))}
        </Stack>
      ) : list.items.length === 0 ? (
        <Center py="16">
          <Text color="fg.muted" data-testid="empty-message">
            {t('insight.noCollections')}
          </Text>
        </Center>
      ) : (
        <>
          <HorizontalScroll label={t('insight.title')} hint={t('insight.scrollHint')} borderWidth="1px" borderRadius="xl">
            <chakra.table w="full" css={{ borderCollapse: 'collapse' }} data-testid="stats-table">
              <thead>
                <Tr>
                  <Th px="2" textAlign="center">#</Th>
                  {COLUMNS.map((column) => {
                    const active = column.sort === sort
                    const Icon = active ? (ascending ? LuArrowUp : LuArrowDown) : LuArrowUpDown
                    const label = column.sort === 'VOLUME' || column.sort === 'SALES' || column.sort === 'CHANGE' ? `${t(column.key)} (${periodLabel(period)})` : t(column.key)
                    return (
                      <Th
                        key={column.sort}
                        textAlign={column.numeric ? 'end' : 'start'}
                        aria-sort={active ? (ascending ? 'ascending' : 'descending') : 'none'}
                        whiteSpace={{ base: 'normal', md: 'nowrap' }}
                      >
                        <Button
                          variant="plain"
                          size="xs"
                          px="0"
                          h="auto"
                          minH="8"
                          whiteSpace={{ base: 'normal', md: 'nowrap' }}
                          textAlign={column.numeric ? 'end' : 'start'}
                          fontWeight={active ? 'bold' : 'semibold'}
                          color={active ? 'fg' : 'fg.muted'}
                          onClick={() => sortBy(column.sort)}
                          data-testid={`sort-${column.sort}`}
                        >
                          {label}
                          <Icon aria-hidden />
                        </Button>
                      </Th>
                    )
                  })}
                </Tr>
              </thead>
              <tbody>
                {list.items.map((row) => (
                  <Row key={row.collectionId} row={row} />
                ))}
              </tbody>
            </chakra.table>
          </HorizontalScroll>
          <ListEnd sentinel={sentinel} loading={list.loadingMore} />
        </>
      )}
    </PageContainer>
  )
}
