import { Button } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { LuPencil } from 'react-icons/lu'
import { Link } from 'react-router'
import { PageContainer } from '@/components/page-container'
import { ProfileSkeleton } from '@/components/skeletons'
import { useUser } from '@/lib/use-user'
import { ProfileHeader } from './profile-header'
import { ProfileTabs } from './profile-tabs'

/** /myprofile: the signed-in user's header and item tabs (with Create collection and the collection menus). */
export function MyProfilePage() {
  const { t } = useTranslation()
  const { user } = useUser()
  useEffect(() => {
    if (user?.fullName) document.title = `${user.fullName} | ${t('app.name')}`
  }, [user?.fullName, t])
  return (
    <PageContainer>
      {user?.email ? (
        <>
          <ProfileHeader
            profile={user}
            actions={
              <Button asChild variant="outline" borderRadius="full" size="sm">
                <Link to="/profile/edit-profile">
                  <LuPencil /> {t('profile.edit')}
                </Link>
              </Button>
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
