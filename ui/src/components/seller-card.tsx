import { Box, Flex, Image, LinkBox, LinkOverlay, Skeleton, SkeletonCircle, SkeletonText, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { IMAGE_SIZES, useImageSources } from '@/lib/image-sources'
import type { TrendingUser } from '@/lib/trending-creators'
import { HeroArt } from './hero-art'
import { UserAvatar } from './user-avatar'

/** Where a seller card goes: /myprofile for the signed-in user, else /user/{userId}. */
export function sellerPath(userId: string, myUserId: string | undefined) {
  return myUserId && myUserId === userId ? '/myprofile' : `/user/${encodeURIComponent(userId)}`
}

function Total({ value, label }: { value: number; label: string }) {
  return (
    <Stack gap="0" align="center" flex="1" minW="0">
      <Text fontWeight="bold" fontSize="lg">
        {value ?? 0}
      </Text>
      <Text fontSize="2xs" color="fg.subtle" textTransform="uppercase" letterSpacing="wide" lineClamp={1}>
        {label}
      </Text>
    </Stack>
  )
}

/** A trending seller or creator: cover, avatar, full name, @username, info text and totals. */
export function SellerCard({ user, myUserId }: { user: TrendingUser; myUserId?: string }) {
  const { t } = useTranslation()
  const info = user.info ?? user.bio ?? ''
  const cover = useImageSources(user.coverImage, IMAGE_SIZES.sellerCover)
  return (
    <LinkBox as="article" bg="bg.panel" borderRadius="2xl" borderWidth="1px" overflow="hidden" boxShadow="card" h="100%" data-testid="seller-card" transition="transform 0.15s" _hover={{ transform: 'translateY(-2px)' }}>
      <Box position="relative" h="110px" bg="navy.900">
        <HeroArt />
        {user.coverImage ? <Image position="absolute" inset="0" {...cover} alt="" w="100%" h="100%" objectFit="cover" loading="lazy" onError={(e) => (e.currentTarget.style.display = 'none')} /> : null}
      </Box>
      <Stack align="center" gap="1" mt="-10" px="4" pb="4" textAlign="center">
        <UserAvatar src={user.avatar} fullName={user.fullName} username={user.username} boxSize="20" fontSize="xl" borderWidth="4px" borderColor="bg.panel" />
        <LinkOverlay asChild>
          <Link to={sellerPath(user.userId, myUserId)}>
            <Text fontWeight="bold" fontSize="md" lineClamp={1}>
              {user.fullName}
            </Text>
          </Link>
        </LinkOverlay>
        <Text color="brand.fg" fontSize="sm" fontWeight="medium">
          @{user.username}
        </Text>
        <Text color="fg.muted" fontSize="sm" lineClamp={2} minH="2lh">
          {info || t('trending.noInfo')}
        </Text>
        <Flex w="full" mt="3" pt="3" borderTopWidth="1px" gap="2">
          <Total value={user.totalSold} label={t('trending.sold')} />
          <Total value={user.totalCollection} label={t('trending.collections')} />
          <Total value={user.totalCreations} label={t('trending.creations')} />
        </Flex>
      </Stack>
    </LinkBox>
  )
}

export function SellerCardSkeleton() {
  return (
    <Box bg="bg.panel" borderRadius="2xl" borderWidth="1px" overflow="hidden" data-testid="seller-skeleton">
      <Skeleton h="110px" />
      <Stack align="center" mt="-10" px="4" pb="4" gap="3">
        <SkeletonCircle size="20" />
        <Skeleton h="4" w="50%" />
        <SkeletonText noOfLines={2} w="full" />
      </Stack>
    </Box>
  )
}
