import { Box, Button, Menu, Portal, Stack, Text } from '@chakra-ui/react'
import { Suspense, lazy } from 'react'
import { useTranslation } from 'react-i18next'
import { LuBell, LuBookmark, LuGavel, LuHandCoins, LuLogOut, LuSettings, LuUser } from 'react-icons/lu'
import { useNavigate } from 'react-router'
import { UserAvatar } from '@/components/user-avatar'
import { tokenExpiryPath } from '@/lib/navigation'
import { useUser } from '@/lib/use-user'

/** The staff's item: its chunk loads when the menu first opens (the menu mounts its content then). */
const StaffMenuItem = lazy(() => import('./staff-menu-item').then((m) => ({ default: m.StaffMenuItem })))

/**
 * The avatar menu: Notifications, All bids, My offers, Favourites, My profile, Settings, for the
 * staff Moderation (with how many targets await a decision), Logout.
 */
export function UserMenu() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { user } = useUser()
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }} lazyMount>
      <Menu.Trigger asChild>
        <Button variant="plain" p="0" minW="0" borderRadius="full" aria-label={t('nav.accountMenu')} data-testid="avatar-menu">
          <UserAvatar src={user?.avatar} fullName={user?.fullName} username={user?.username} size="sm" />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="56">
            {user ? (
              <Box px="3" py="2">
                <Stack gap="0">
                  <Text fontWeight="semibold">{user.fullName}</Text>
                  <Text fontSize="sm" color="fg.muted">
                    @{user.username}
                  </Text>
                </Stack>
              </Box>
            ) : null}
            <Menu.Separator />
            <Menu.Item value="notifications" onSelect={() => navigate('/notifications')}>
              <LuBell /> {t('notices.title')}
            </Menu.Item>
            <Menu.Item value="bids" onSelect={() => navigate('/mybids')}>
              <LuGavel /> {t('nav.allBids')}
            </Menu.Item>
            <Menu.Item value="offers" onSelect={() => navigate('/myoffers')}>
              <LuHandCoins /> {t('offers.myOffers')}
            </Menu.Item>
            <Menu.Item value="favourites" onSelect={() => navigate('/favourites')}>
              <LuBookmark /> {t('nav.favourites')}
            </Menu.Item>
            <Menu.Item value="profile" onSelect={() => navigate('/myprofile')}>
              <LuUser /> {t('nav.myProfile')}
            </Menu.Item>
            <Menu.Item value="settings" onSelect={() => navigate('/profile/user-profile')}>
              <LuSettings /> {t('nav.settings')}
            </Menu.Item>
            <Suspense fallback={null}>
              <StaffMenuItem Item={Menu.Item} />
            </Suspense>
            <Menu.Separator />
            <Menu.Item value="logout" onSelect={() => navigate(tokenExpiryPath())} color="fg.error">
              <LuLogOut /> {t('nav.logout')}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}
