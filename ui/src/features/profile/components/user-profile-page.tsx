import { Button, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { LuArrowLeft } from 'react-icons/lu'
import { Link, Navigate, useParams } from 'react-router'
import { PageContainer } from '@/components/page-container'
import { ProfileSkeleton } from '@/components/skeletons'
import { useUser } from '@/lib/use-user'
import { TargetMenu } from '@/components/moderation/target-menu'
import { useStanding } from '@/lib/moderation/api'
import { useUserProfile } from '../api/get-user-profile'
import { ProfileHeader } from './profile-header'
import { type ProfileTab, ProfileTabs } from './profile-tabs'

/**
 * /user/{userId}: another user's profile and item tabs; the signed-in user's own id goes to
 * /myprofile. The trending seller and creator pages (/trending-sellers/{id},
 * /trending-creators/{id}) are the same page opened on the tab that made them trend (In Sale,
 * Created) with a way back to the list: the real items replace the original's sample file.
 */
export function UserProfilePage({ defaultTab, backTo }: { defaultTab?: ProfileTab; backTo?: string } = {}) {
  const { t } = useTranslation()
  const params = useParams()
  const userId = params.userId ?? params.id
  const { user } = useUser()
  const isMe = !!user && user.userId === userId
  const { data, error } = useUserProfile(isMe ? undefined : userId)
  const { data: standing } = useStanding('user', isMe ? null : userId)
  const verified = standing ? standing.verified : !!data?.verified
  const erased = !!data?.erased
  useEffect(() => {
    const name = erased ? t('profile.deletedUser') : data?.fullName
    if (name) document.title = `${name} | ${t('app.name')}`
  }, [data?.fullName, erased, t])
  if (isMe) return <Navigate to="/myprofile" replace />
  return (
    <PageContainer>
      {backTo ? (
        <Button asChild variant="ghost" size="sm" mb="4" borderRadius="full">
          <Link to={backTo}>
            <LuArrowLeft /> {t('trending.back')}
          </Link>
        </Button>
      ) : null}
      {data ? (
        <>
          <ProfileHeader
            profile={data}
            verified={verified}
            erased={erased}
            actions={erased ? undefined : <TargetMenu kind="user" targetId={data.userId} name={`@${data.username}`} own={false} verified={verified} />}
          />
          <ProfileTabs key={data.userId} userId={data.userId} own={false} defaultTab={defaultTab} />
        </>
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
