import { HStack, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { Amount } from '@/components/amount'
import { CURRENCY } from '@/lib/format'
import type { Collection } from '@/lib/collection/types'

/** A collection card's floor and all-time volume (the figures the grid answers with). */
export function CollectionCardStats({ collection }: { collection: Collection }) {
  const { t } = useTranslation()
  if (collection.volume === undefined && collection.floorPrice === undefined) return null
  return (
    <HStack gap="3" justify="space-between" borderTopWidth="1px" pt="2" data-testid="collection-card-stats">
      <Stack gap="0" minW="0">
        <Text fontSize="2xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
          {t('insight.floor')}
        </Text>
        <Text fontSize="sm" fontWeight="semibold" data-testid="collection-floor">
          {collection.floorPrice ? <Amount value={collection.floorPrice} suffix={CURRENCY} /> : '—'}
        </Text>
      </Stack>
      <Stack gap="0" minW="0" textAlign="right">
        <Text fontSize="2xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
          {t('insight.volume')}
        </Text>
        <Text fontSize="sm" fontWeight="semibold" data-testid="collection-volume">
          <Amount value={collection.volume ?? '0'} suffix={CURRENCY} />
        </Text>
      </Stack>
    </HStack>
  )
}
