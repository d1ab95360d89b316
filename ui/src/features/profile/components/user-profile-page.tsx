import { Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useParams } from 'react-router'
import { PageContainer } from '@/components/page-container'
import { ProfileSkeleton } from '@/components/skeletons'
import { useUser } from '@/lib/use-user'
import { useUserProfile } from '../api/get-user-profile'
import { ProfileHeader } from './profile-header'

/** /user/{userId}: another user's profile; the signed-in user's own id goes to /myprofile. */
export function UserProfilePage() {
  const { t } = useTranslation()
  const { userId } = useParams()
  const { user } = useUser()
  const isMe = !!user && user.userId === userId
  const { data, error } = useUserProfile(isMe ? undefined : userId)
  useEffect(() => {
    if (data?.fullName) document.title = `${data.fullName} | ${t('app.name')}`
  }, [data?.fullName, t])
  if (isMe) return <Navigate to="/myprofile" replace />
  return (
    <PageContainer>
      {data ? (
        <ProfileHeader profile={data} />
      ) : error ? (
        <Text color="fg.muted" textAlign="center" py="16">
          {t('profile.notFound')}
        </Text>
      ) : (
        <ProfileSkeleton />
      )}
    </PageContainer>
  )
}
