import { Box, Flex, HStack, IconButton, Image, Link as ChakraLink, Stack, Text } from '@chakra-ui/react'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { FaHeart, FaRegHeart } from 'react-icons/fa6'
import { LuBadgeCheck, LuLayers } from 'react-icons/lu'
import { Link, useNavigate } from 'react-router'
import { useSession } from '@/lib/auth'
import { formatCount } from '@/lib/format'
import { likeCollection } from '@/lib/collection/save-collection'
import { IMAGE_SIZES, loadingHints, useImageSources } from '@/lib/image-sources'
import type { Collection } from '@/lib/collection/types'
import { currentPath, signInPath } from '@/lib/navigation'
import { HeroArt } from '../hero-art'

import { CollectionCardStats } from './collection-card-stats'

/** Where a user's name links: the signed-in user's own page, or the public profile. */
export function profilePath(userId: string | undefined, myUserId: string | undefined) {
  if (!userId) return undefined
  return myUserId && userId === myUserId ? '/myprofile' : `/user/${encodeURIComponent(userId)}`
}

/**
 * The like toggle of a collection: the heart and the count change only once the server
 * accepted the like (section 4); a failure is only logged. Visitors go to sign-in first.
 */
function LikeButton({ collection }: { collection: Collection }) {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const token = useSession((s) => s.token)
  const [state, setState] = useState({ liked: !!collection.isLiked, count: collection.totalLikes ?? 0 })
  const [pending, setPending] = useState(false)
  const toggle = async () => {
    if (!token) {
      navigate(signInPath(currentPath()))
      return
    }
    setPending(true)
    try {
      const { body } = await likeCollection(collection._id)
      setState((s) => ({
        liked: typeof body?.isLiked === 'boolean' ? body.isLiked : !s.liked,
        count: typeof body?.totalLikes === 'number' ? body.totalLikes : s.count + (s.liked ? -1 : 1),
      }))
    } catch (error) {
      console.error('Could not like the collection', error)
    } finally {
      setPending(false)
    }
  }
  return (
    <HStack gap="1">
      <IconButton
        size="xs"
        variant="ghost"
        borderRadius="full"
        aria-label={state.liked ? t('collections.unlike') : t('collections.like')}
        aria-pressed={state.liked}
        onClick={toggle}
        disabled={pending}
        color={state.liked ? 'pink.500' : 'fg.muted'}
        data-testid="collection-like"
      >
        {state.liked ? <FaHeart /> : <FaRegHeart />}
      </IconButton>
      <Text fontSize="sm" color="fg.muted" data-testid="collection-likes">
        {formatCount(state.count, i18n.resolvedLanguage)}
      </Text>
    </HStack>
  )
}

/**
 * A collection card: its picture (or the seller collection's artwork, or the default art), the
 * title, the creator as a link, how many NFTs it holds and the like toggle; `menu` is the
 * creator's edit / delete menu. The picture and title open the collection at `to`. `eager`: the
 * card is above the fold on arrival, so its picture loads at once and first.
 */
export function CollectionCard({
  collection,
  to,
  menu,
  myUserId,
  eager = false,
}: {
  collection: Collection
  to: string
  menu?: ReactNode
  myUserId?: string
  eager?: boolean
}) {
  const { t, i18n } = useTranslation()
  const src = collection.image || collection.artworkImage
  const image = useImageSources(src, IMAGE_SIZES.card)
  const count = collection.nftCount ?? collection.totalItems ?? 0
  const creatorPath = profilePath(collection.creator?.userId, myUserId)
  return (
    <Stack gap="0" bg="bg.panel" borderRadius="2xl" borderWidth="1px" overflow="hidden" boxShadow="card" data-testid="collection-card" transition="transform 0.15s" _hover={{ transform: 'translateY(-2px)' }}>
      <Link to={to} aria-label={collection.title}>
        <Box position="relative" h={{ base: '200px', md: '220px' }} bg="navy.900">
          {src ? <Image {...image} {...loadingHints(eager)} alt={collection.title} w="100%" h="100%" objectFit="cover" /> : <HeroArt />}
          <HStack position="absolute" bottom="3" left="3" bg="blackAlpha.600" color="white" px="2.5" py="1" borderRadius="full" fontSize="xs" gap="1.5" backdropFilter="blur(6px)" title={t('collections.nftCount')} aria-label={`${t('collections.nftCount')}: ${count}`}>
            <LuLayers />
            <Text>{formatCount(count, i18n.resolvedLanguage)}</Text>
          </HStack>
        </Box>
      </Link>
      <Stack p="4" gap="2">
        <Flex justify="space-between" align="center" gap="2">
          <HStack gap="1" minW="0">
            <ChakraLink asChild color="fg" fontWeight="bold" fontSize="md" lineClamp={1} minW="0">
              <Link to={to}>{collection.title}</Link>
            </ChakraLink>
            {collection.verified ? (
              // The check drawn here (as creator chips draw theirs): a shared badge component would be a chunk of its own on first visits.
              <span role="img" aria-label={t('moderation.verified')} title={t('moderation.verified')} style={{ display: 'inline-flex', flexShrink: 0, color: 'var(--chakra-colors-blue-solid)' }} data-testid="verified-badge">
                <LuBadgeCheck size={16} aria-hidden />
              </span>
            ) : null}
          </HStack>
          {menu}
        </Flex>
        <Flex justify="space-between" align="center" gap="2">
          <Text fontSize="sm" color="fg.muted" minW="0" lineClamp={1}>
            {t('collections.by')}{' '}
            {creatorPath ? (
              <ChakraLink asChild color="brand.fg" fontWeight="semibold">
                <Link to={creatorPath} data-testid="collection-creator">
                  @{collection.creator.username}
                </Link>
              </ChakraLink>
            ) : null}
          </Text>
          <LikeButton key={`${collection._id}-${collection.isLiked}-${collection.totalLikes}`} collection={collection} />
        </Flex>
        <CollectionCardStats collection={collection} />
      </Stack>
    </Stack>
  )
}
