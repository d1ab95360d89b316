import { Box, Grid, Heading, HStack, Icon, Link as ChakraLink, Stack } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import type { IconType } from 'react-icons'
import { LuBot, LuGlobe, LuKeyRound, LuMail, LuPalette, LuShieldCheck, LuUser, LuWebhook } from 'react-icons/lu'
import { NavLink, Outlet, useLocation } from 'react-router'
import { PageContainer } from '@/components/page-container'
import { useUser } from '@/lib/use-user'
import type { TranslationKey } from '@/lib/i18n'

type Item = { to: string; labelKey: TranslationKey; icon: IconType; emailOnly?: boolean }

export const SETTINGS_MENU: Item[] = [
  { to: '/profile/user-profile', labelKey: 'settings.menu.userProfile', icon: LuUser },
  { to: '/profile/language', labelKey: 'settings.menu.language', icon: LuGlobe },
  { to: '/profile/theme', labelKey: 'settings.menu.theme', icon: LuPalette },
  { to: '/profile/api-keys', labelKey: 'settings.menu.apiKeys', icon: LuBot },
  { to: '/profile/webhooks', labelKey: 'settings.menu.webhooks', icon: LuWebhook },
  { to: '/profile/change-password', labelKey: 'settings.menu.changePassword', icon: LuKeyRound, emailOnly: true },
  { to: '/profile/change-email', labelKey: 'settings.menu.changeEmail', icon: LuMail, emailOnly: true },
  { to: '/profile/privacy', labelKey: 'settings.menu.privacy', icon: LuShieldCheck },
]

/** Page titles for narrow screens, where the side menu is not shown. */
const TITLES: Record<string, TranslationKey> = {
  '/profile/user-profile': 'settings.menu.userProfile',
  '/profile/edit-profile': 'settings.menu.editProfile',
  '/profile/language': 'settings.menu.language',
  '/profile/theme': 'settings.menu.theme',
  '/profile/api-keys': 'settings.menu.apiKeys',
  '/profile/webhooks': 'settings.menu.webhooks',
  '/profile/change-password': 'settings.menu.changePassword',
  '/profile/change-email': 'settings.menu.changeEmail',
  '/profile/privacy': 'settings.menu.privacy',
  '/profile/kyc-pending': 'kyc.title',
  '/profile/kyc-approved': 'kyc.title',
}

/** Whether `item` is the page at `pathname` (Edit profile belongs to User profile). */
function isActive(item: Item, pathname: string): boolean {
  return pathname === item.to || (item.to === '/profile/user-profile' && pathname === '/profile/edit-profile')
}

/** /profile/...: side menu (Change Password and Change Email hidden for GOOGLE users) and the page. */
export function SettingsShell() {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const { user } = useUser()
  const isGoogle = user?.authProvider === 'GOOGLE'
  const items = SETTINGS_MENU.filter((item) => !(item.emailOnly && isGoogle))
  const title = TITLES[pathname]
  return (
    <PageContainer>
      <Heading as="h1" size="2xl" mb="4" hideFrom="md" data-testid="settings-mobile-title">
        {title ? t(title) : t('settings.title')}
      </Heading>
      {/* On a phone the side menu gives way to a row of the same links, scrolled sideways. */}
      <Box as="nav" hideFrom="md" aria-label={t('settings.title')} data-testid="settings-mobile-menu" overflowX="auto" mx="-4" px="4" mb="6" pb="1">
        <HStack gap="2" width="max-content">
          {items.map((item) => (
            <SettingsLink key={item.to} item={item} active={isActive(item, pathname)} pill />
          ))}
        </HStack>
      </Box>
      <Grid templateColumns={{ base: '1fr', md: '260px 1fr' }} gap="8" alignItems="start">
        <Box as="nav" hideBelow="md" aria-label={t('settings.title')} bg="bg.panel" borderWidth="1px" borderRadius="2xl" p="3" position="sticky" top="24">
          <Heading as="h1" size="md" px="3" py="2" mb="1">
            {t('settings.title')}
          </Heading>
          <Stack gap="1">
            {items.map((item) => (
              <SettingsLink key={item.to} item={item} active={isActive(item, pathname)} />
            ))}
          </Stack>
        </Box>
        <Box minW="0">
          <Outlet />
        </Box>
      </Grid>
    </PageContainer>
  )
}

/** A settings link: a row of the side menu, or (`pill`) a pill of the phone's row, scrolled into view when current. */
function SettingsLink({ item, active, pill = false }: { item: Item; active: boolean; pill?: boolean }) {
  const { t } = useTranslation()
  const shape = pill
    ? { px: '3', py: '1.5', borderRadius: 'full', borderWidth: '1px', gap: '2', fontSize: 'sm', whiteSpace: 'nowrap' as const, borderColor: active ? 'brand.muted' : 'border' }
    : { px: '3', py: '2.5', borderRadius: 'lg', gap: '3' }
  const idle = pill ? 'bg.panel' : 'transparent'
  return (
    <ChakraLink
      asChild
      {...shape}
      fontWeight={active ? 'semibold' : 'medium'}
      color={active ? 'brand.fg' : 'fg.muted'}
      bg={active ? 'brand.subtle' : idle}
      _hover={{ textDecoration: 'none', bg: active ? 'brand.subtle' : pill ? idle : 'bg.muted', color: active ? 'brand.fg' : 'fg' }}
      aria-current={active ? 'page' : undefined}
    >
      <NavLink to={item.to} ref={pill && active ? (link) => link?.scrollIntoView?.({ block: 'nearest', inline: 'center' }) : undefined}>
        <Icon as={item.icon} />
        {t(item.labelKey)}
      </NavLink>
    </ChakraLink>
  )
}
