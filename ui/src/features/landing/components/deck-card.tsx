import { Box, Flex, HStack, Image, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { FaHeart, FaRegHeart } from 'react-icons/fa6'
import { Amount } from '@/components/amount'
import { UserAvatar } from '@/components/user-avatar'
import { truncate } from '@/lib/format'
import { loadingHints, useImageSources } from '@/lib/image-sources'
import { CURRENCY, formatCount, formatRelative } from '@/lib/format'
import type { NftUser, TrendingNft } from '../api/trending-nfts'

export const DECK_TITLE_MAX = 15
export const DECK_USERNAME_MAX = 5
/** The deck is 280px wide, 340px tilted (nft-deck.tsx). */
export const DECK_IMAGE_SIZES = '340px'

function Person({ label, user }: { label: string; user: NftUser }) {
  return (
    <HStack gap="2" minW="0">
      <UserAvatar src={user?.avatar} fullName={user?.fullName} username={user?.username} size="xs" />
      <Stack gap="0" minW="0">
        <Text fontSize="2xs" color="fg.subtle" textTransform="uppercase" letterSpacing="wide">
          {label}
        </Text>
        <Text fontSize="xs" fontWeight="semibold">
          {truncate(user?.username, DECK_USERNAME_MAX)}
        </Text>
      </Stack>
    </HStack>
  )
}

/**
 * One trending NFT: image, title (15 chars), price in Matic, creator and owner, age, likes. `top`:
 * the card on top of the deck, the hero's picture, so it loads at once and first.
 */
export function DeckCard({ nft, top = false }: { nft: TrendingNft; top?: boolean }) {
  const { t, i18n } = useTranslation()
  const image = useImageSources(nft.file, DECK_IMAGE_SIZES)
  return (
    <Stack gap="0" bg="bg.panel" borderRadius="2xl" borderWidth="1px" overflow="hidden" boxShadow="card" w="100%" h="100%" data-testid="deck-card">
      <Box position="relative" flex="1" minH="0" bg="bg.muted">
        <Image {...image} {...loadingHints(top)} alt={nft.title} w="100%" h="100%" objectFit="cover" draggable={false} />
        <HStack position="absolute" top="3" right="3" bg="blackAlpha.600" color="white" px="2.5" py="1" borderRadius="full" fontSize="xs" gap="1.5" backdropFilter="blur(6px)">
          {nft.isLiked ? <FaHeart color="#ec4899" /> : <FaRegHeart />}
          <Text>{formatCount(nft.totalLikes ?? 0, i18n.resolvedLanguage)}</Text>
        </HStack>
      </Box>
      <Stack p="4" gap="3">
        <Flex justify="space-between" align="center" gap="2">
          <Text fontWeight="bold" fontSize="md">
            {truncate(nft.title, DECK_TITLE_MAX)}
          </Text>
          <Amount value={nft.fixedPrice} suffix={CURRENCY} fontWeight="bold" color="brand.fg" fontSize="sm" whiteSpace="nowrap" />
        </Flex>
        <Flex justify="space-between" align="center" gap="2">
          <Person label={t('landing.deck.creator')} user={nft.creator} />
          <Person label={t('landing.deck.owner')} user={nft.currentOwner} />
        </Flex>
        <Text fontSize="xs" color="fg.subtle">
          {formatRelative(nft.updatedAt, Date.now(), i18n.resolvedLanguage)}
        </Text>
      </Stack>
    </Stack>
  )
}
