import { Button } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { LuPencil } from 'react-icons/lu'
import { Link } from 'react-router'
import { PageContainer } from '@/components/page-container'
import { ProfileSkeleton } from '@/components/skeletons'
import { useUser } from '@/lib/use-user'
import { ProfileHeader } from './profile-header'

/** /myprofile: the signed-in user's header (the item tabs belong to the marketplace screens). */
export function MyProfilePage() {
  const { t } = useTranslation()
  const { user } = useUser()
  useEffect(() => {
    if (user?.fullName) document.title = `${user.fullName} | ${t('app.name')}`
  }, [user?.fullName, t])
  return (
    <PageContainer>
      {user?.email ? (
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
      ) : (
        <ProfileSkeleton />
      )}
    </PageContainer>
  )
}
