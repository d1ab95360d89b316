import { Badge } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { formatCount } from '@/lib/format'
import type { NftRarity } from '@/lib/nft/types'

/** "Rank #n": an NFT's rarity rank in its collection (1 the rarest), the whole in its title. */
export function RarityBadge({ rarity, size = 'sm' }: { rarity: NftRarity | null | undefined; size?: 'sm' | 'md' | 'lg' }) {
  const { t, i18n } = useTranslation()
  if (!rarity) return null
  const rank = formatCount(rarity.rank, i18n.resolvedLanguage)
  const of = formatCount(rarity.of, i18n.resolvedLanguage)
  return (
    <Badge
      size={size}
      variant="solid"
      colorPalette="teal"
      borderRadius="full"
      title={t('traits.rankOf', { rank, of })}
      aria-label={t('traits.rankOf', { rank, of })}
      data-testid="rarity-badge"
      data-rank={rarity.rank}
      fontVariantNumeric="tabular-nums"
    >
      {t('traits.rank', { rank })}
    </Badge>
  )
}
