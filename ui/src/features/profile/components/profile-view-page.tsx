import { Box, Button, Flex, HStack, Heading, Icon, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuMail, LuPencil, LuPhone } from 'react-icons/lu'
import { Link } from 'react-router'
import { ProfileSkeleton } from '@/components/skeletons'
import { UserAvatar } from '@/components/user-avatar'
import { useUser } from '@/lib/use-user'
import { ProfileCover } from './profile-cover'

/** /profile/user-profile: shown once the profile has an e-mail. */
export function ProfileViewPage() {
  const { t } = useTranslation()
  const { user } = useUser()
  if (!user?.email) return <ProfileSkeleton />
  return (
    <Stack gap="0" bg="bg.panel" borderWidth="1px" borderRadius="2xl" overflow="hidden" boxShadow="card" data-testid="profile-view">
      <ProfileCover src={user.coverImage} height={{ base: '140px', md: '200px' }} radius="0" />
      <Stack px={{ base: '5', md: '8' }} pb="8" gap="6">
        <Flex justify="space-between" align="flex-end" mt="-12" wrap="wrap" gap="3">
          <UserAvatar src={user.avatar} fullName={user.fullName} username={user.username} boxSize="24" fontSize="2xl" borderWidth="4px" borderColor="bg.panel" />
          <Button asChild variant="outline" borderRadius="full" size="sm">
            <Link to="/profile/edit-profile">
              <LuPencil /> {t('profile.edit')}
            </Link>
          </Button>
        </Flex>
        <Stack gap="1">
          <Heading as="h2" size="xl">
            {user.fullName}
          </Heading>
          <Text color="brand.fg" fontWeight="medium">
            @{user.username}
          </Text>
        </Stack>
        <Box>
          <Text fontSize="sm" fontWeight="semibold" color="fg.subtle" textTransform="uppercase" letterSpacing="wider" mb="2">
            {t('profile.bio')}
          </Text>
          <Text color={user.bio ? 'fg' : 'fg.subtle'} whiteSpace="pre-line">
            {user.bio || t('profile.bioPlaceholder')}
          </Text>
        </Box>
        <Box>
          <Text fontSize="sm" fontWeight="semibold" color="fg.subtle" textTransform="uppercase" letterSpacing="wider" mb="2">
            {t('profile.contactInfo')}
          </Text>
          <Stack gap="2">
            <HStack gap="3">
              <Icon as={LuMail} color="fg.muted" />
              <Text>{user.email}</Text>
            </HStack>
            {user.mobileNumber ? (
              <HStack gap="3">
                <Icon as={LuPhone} color="fg.muted" />
                <Text>{user.mobileNumber}</Text>
              </HStack>
            ) : null}
          </Stack>
        </Box>
      </Stack>
    </Stack>
  )
}
