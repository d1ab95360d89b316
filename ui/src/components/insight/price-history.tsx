import { Center, Heading, Skeleton, Stack, Text } from '@chakra-ui/react'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { usePriceHistory } from '@/lib/insight/api'

// recharts and the chart kit (92 KB brotli) load only once an NFT has a history to draw.
const PriceHistoryChart = lazy(() => import('./price-history-chart'))

/**
 * An NFT's price history: its sales and bids over time (GET /api/nft/pricehistory/{id}), or a
 * line saying there are none. `version` changes when the NFT does, to load it again.
 */
export function PriceHistory({ nftId, version }: { nftId: string; version?: string }) {
  const { t } = useTranslation()
  const { data, error, isLoading } = usePriceHistory(nftId, version)
  const placeholder = <Skeleton h={{ base: '240px', sm: '280px' }} borderRadius="lg" data-testid="price-chart-loading" />
  return (
    <Stack gap="3" borderWidth="1px" borderRadius="xl" p={{ base: '3', md: '4' }} data-testid="price-history">
      <Heading as="h2" size="md">
        {t('insight.priceHistory')}
      </Heading>
      {isLoading ? (
        placeholder
      ) : error ? (
        <Text color="fg.error" fontSize="sm">
          {t('insight.loadError')}
        </Text>
      ) : !data || data.length === 0 ? (
        <Center py="8" data-testid="price-history-empty">
          <Text color="fg.muted" fontSize="sm" textAlign="center">
            {t('insight.noPriceHistory')}
          </Text>
        </Center>
      ) : (
        <Suspense fallback={placeholder}>
          <PriceHistoryChart points={data} />
        </Suspense>
      )}
    </Stack>
  )
}
