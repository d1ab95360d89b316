import { Box, Center, Flex, Heading, HStack, Icon, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LuUserX } from 'react-icons/lu'
import { VerifiedBadge } from '@/components/moderation/verified-badge'
import { UserAvatar } from '@/components/user-avatar'
import { ProfileCover } from './profile-cover'

/**
 * Cover, avatar (or initials), full name (and the verified check), @username and bio; used by
 * /myprofile and /user/{id}. A deleted account (`erased`) has none of these any more: it reads
 * "Deleted user", and what it did on chain stays under its wallet address.
 */
export function ProfileHeader({
  profile,
  actions,
  verified = false,
  erased = false,
}: {
  profile: { fullName: string; username: string; bio: string; avatar: string; coverImage: string }
  actions?: ReactNode
  /** A verified creator: the check beside the name. */
  verified?: boolean
  /** A deleted account. */
  erased?: boolean
}) {
  if (erased) return <DeletedUserHeader />
  return (
    <Box>
      <ProfileCover src={profile.coverImage} height={{ base: '160px', md: '280px' }} />
      <Flex direction={{ base: 'column', md: 'row' }} align={{ base: 'center', md: 'flex-end' }} gap={{ base: '3', md: '6' }} mt={{ base: '-12', md: '-16' }} px={{ base: '0', md: '8' }}>
        <UserAvatar src={profile.avatar} fullName={profile.fullName} username={profile.username} boxSize={{ base: '24', md: '32' }} fontSize="3xl" borderWidth="4px" borderColor="bg" />
        <Stack gap="1" flex="1" textAlign={{ base: 'center', md: 'left' }} pb="2" pt={{ base: '0', md: '16' }}>
          <HStack gap="2" justify={{ base: 'center', md: 'flex-start' }} minW="0">
            <Heading as="h1" size="2xl" wordBreak="break-word">
              {profile.fullName}
            </Heading>
            <VerifiedBadge verified={verified} size={24} />
          </HStack>
          <Text color="brand.fg" fontWeight="medium">
            @{profile.username}
          </Text>
        </Stack>
        {actions ? <Box pb="2">{actions}</Box> : null}
      </Flex>
      {profile.bio ? (
        <Text mt="5" color="fg.muted" maxW="3xl" textAlign={{ base: 'center', md: 'left' }} px={{ base: '0', md: '8' }} whiteSpace="pre-line">
          {profile.bio}
        </Text>
      ) : null}
    </Box>
  )
}

/** The header of a deleted account: no name, no handle, no picture, no actions. */
function DeletedUserHeader() {
  const { t } = useTranslation()
  return (
    <Box data-testid="deleted-user">
      <ProfileCover height={{ base: '160px', md: '280px' }} />
      <Flex direction={{ base: 'column', md: 'row' }} align={{ base: 'center', md: 'flex-end' }} gap={{ base: '3', md: '6' }} mt={{ base: '-12', md: '-16' }} px={{ base: '0', md: '8' }}>
        <Center boxSize={{ base: '24', md: '32' }} flexShrink={0} borderRadius="full" borderWidth="4px" borderColor="bg" bg="bg.emphasized" color="fg.muted" position="relative">
          <Icon as={LuUserX} boxSize="40%" aria-hidden />
        </Center>
        <Stack gap="1" flex="1" textAlign={{ base: 'center', md: 'left' }} pb="2" pt={{ base: '0', md: '16' }}>
          <Heading as="h1" size="2xl">
            {t('profile.deletedUser')}
          </Heading>
          <Text color="fg.muted">{t('profile.deletedUserText')}</Text>
        </Stack>
      </Flex>
    </Box>
  )
}
