import { Center, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { Amount } from '@/components/amount'
import { CURRENCY, formatCount, localeTag } from '@/lib/format'
import { useCollectionInsight } from '@/lib/insight/api'
import { StatFigure } from './stat-figure'

const CollectionHistoryChart = lazy(() => import('./collection-history-chart'))

/** A share (0..1) as the language writes a percentage. */
export function formatShare(share: number, lng?: string): string {
  return new Intl.NumberFormat(localeTag(lng), { style: 'percent', maximumFractionDigits: 1 }).format(share)
}

/**
 * A collection's statistics (GET /api/stats/collection/{id}): floor, volumes of 24 hours, 7 days
 * and all time, sales, owners, items and the share listed; then its floor and volume by day.
 */
export function CollectionStatsPanel({ collectionId }: { collectionId: string }) {
  const { t, i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  const { data, error, isLoading } = useCollectionInsight(collectionId)
  if (isLoading) return <Skeleton h="40" borderRadius="xl" data-testid="collection-stats-loading" />
  if (error || !data) return null
  const { stats, days } = data
  const traded = days.some((d) => d.sales > 0 || d.floor !== null)
  return (
    <Stack gap="4" borderWidth="1px" borderRadius="xl" p={{ base: '3', md: '5' }} data-testid="collection-stats">
      <Heading as="h2" size="md">
        {t('insight.statistics')}
      </Heading>
      <SimpleGrid columns={{ base: 2, sm: 4, lg: 8 }} gap={{ base: '3', md: '4' }}>
        <StatFigure label={t('insight.floor')} testId="stat-floor">
          {stats.floorPrice === null ? '—' : <Amount value={stats.floorPrice} suffix={CURRENCY} />}
        </StatFigure>
        <StatFigure label={t('insight.volume24h')} testId="stat-volume-24h">
          <Amount value={stats.volume24h} suffix={CURRENCY} />
        </StatFigure>
        <StatFigure label={t('insight.volume7d')}>
          <Amount value={stats.volume7d} suffix={CURRENCY} />
        </StatFigure>
        <StatFigure label={t('insight.volumeAll')} testId="stat-volume">
          <Amount value={stats.volumeAll} suffix={CURRENCY} />
        </StatFigure>
        <StatFigure label={t('insight.sales')}>{formatCount(stats.sales, lng)}</StatFigure>
        <StatFigure label={t('insight.owners')}>{formatCount(stats.owners, lng)}</StatFigure>
        <StatFigure label={t('insight.items')}>{formatCount(stats.items, lng)}</StatFigure>
        <StatFigure label={t('insight.listed')}>{formatShare(stats.listedShare, lng)}</StatFigure>
      </SimpleGrid>
      {traded ? (
        <Suspense fallback={<Skeleton h={{ base: '240px', sm: '280px' }} borderRadius="lg" />}>
          <CollectionHistoryChart days={days} />
        </Suspense>
      ) : (
        <Center py="4">
          <Text color="fg.muted" fontSize="sm">
            {t('insight.noCollectionHistory')}
          </Text>
        </Center>
      )}
    </Stack>
  )
}
