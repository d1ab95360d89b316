import { HStack, Link, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { RarityBadge } from '@/components/nft/rarity-badge'
import { useCollectionById } from '@/lib/collection/collection-by-id'
import { formatCount } from '@/lib/format'
import type { NftRarity } from '@/lib/nft/types'

/** The NFT page's rarity line: "Rank #n · n of N in <collection>", or nothing outside one. */
export function RarityRank({ rarity }: { rarity: NftRarity | null | undefined }) {
  const { t, i18n } = useTranslation()
  const collection = useCollectionById(rarity?.collectionId)
  if (!rarity) return null
  const rank = formatCount(rarity.rank, i18n.resolvedLanguage)
  const of = formatCount(rarity.of, i18n.resolvedLanguage)
  return (
    <HStack gap="2" flexWrap="wrap" fontSize="sm" data-testid="rarity-rank">
      <RarityBadge rarity={rarity} size="md" />
      <Text color="fg.muted">
        {t('traits.rankIn', { rank, of })}{' '}
        <Link asChild colorPalette="brand" fontWeight="semibold">
          <RouterLink to={`/collection/${rarity.collectionId}`}>{collection.data?.title ?? t('traits.collection')}</RouterLink>
        </Link>
      </Text>
    </HStack>
  )
}
