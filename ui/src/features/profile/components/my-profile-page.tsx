import { Button, HStack } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { LuBookmark, LuPencil } from 'react-icons/lu'
import { Link } from 'react-router'
import { PageContainer } from '@/components/page-container'
import { ProfileSkeleton } from '@/components/skeletons'
import { useUser } from '@/lib/use-user'
import { useStanding } from '@/lib/moderation/api'
import { ProfileHeader } from './profile-header'
import { ProfileTabs } from './profile-tabs'

/** /myprofile: the signed-in user's header and item tabs (with Create collection and the collection menus). */
export function MyProfilePage() {
  const { t } = useTranslation()
  const { user } = useUser()
  const { data: standing } = useStanding('user', user?.userId)
  useEffect(() => {
    if (user?.fullName) document.title = `${user.fullName} | ${t('app.name')}`
  }, [user?.fullName, t])
  return (
    <PageContainer>
      {user?.email ? (
        <>
          <ProfileHeader
            profile={user}
            verified={!!standing?.verified}
            actions={
              <HStack gap="2">
                <Button asChild variant="outline" borderRadius="full" size="sm">
                  <Link to="/favourites" data-testid="profile-favourites">
                    <LuBookmark /> {t('nav.favourites')}
                  </Link>
                </Button>
                <Button asChild variant="outline" borderRadius="full" size="sm">
                  <Link to="/profile/edit-profile">
                    <LuPencil /> {t('profile.edit')}
                  </Link>
                </Button>
              </HStack>
            }
          />
          <ProfileTabs key={user.userId} userId={user.userId} own />
        </>
      ) : (
        <ProfileSkeleton />
      )}
    </PageContainer>
  )
}
