import { Button, CloseButton, Drawer, HStack, Icon, Link as ChakraLink, Portal, Separator, Stack } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { NavLink, useLocation } from 'react-router'
import { Logo } from '../logo'
import { GradientButton } from '../ui/gradient-button'
import { useMyRoles } from '@/lib/moderation/roles'
import { NAV_LINKS, isActive } from './nav-links'

/**
 * The right-side drawer of narrow screens: the links, account links (Moderation too for the staff),
 * wallet information and network chooser.
 */
export function MobileDrawer({
  open,
  onClose,
  signedIn,
  accountLinks,
  walletSlot,
  onLogout,
}: {
  open: boolean
  onClose: () => void
  signedIn: boolean
  accountLinks: { to: string; label: string }[]
  walletSlot: ReactNode
  onLogout: () => void
}) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const { isModerator } = useMyRoles()
  const links = isModerator ? [...accountLinks, { to: '/moderation', label: t('moderation.title') }] : accountLinks
  return (
    <Drawer.Root open={open} onOpenChange={(e) => (e.open ? undefined : onClose())} placement="end" size="xs">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="mobile-drawer">
            <Drawer.Header>
              <Drawer.Title>
                <Logo />
              </Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="1">
                {NAV_LINKS.map((link) => (
                  <ChakraLink
                    key={link.to}
                    asChild
                    px="3"
                    py="2.5"
                    borderRadius="lg"
                    bg={isActive(pathname, link.match) ? 'bg.muted' : undefined}
                    _hover={{ textDecoration: 'none', bg: 'bg.muted' }}
                    onClick={onClose}
                  >
                    <NavLink to={link.to}>
                      <HStack gap="3">
                        <Icon as={link.icon} />
                        {t(link.labelKey)}
                      </HStack>
                    </NavLink>
                  </ChakraLink>
                ))}
              </Stack>
              <Separator my="4" />
              {signedIn ? (
                <Stack gap="4">
                  <Stack gap="1">
                    {links.map((link) => (
                      <ChakraLink key={link.to} asChild px="3" py="2" borderRadius="lg" _hover={{ textDecoration: 'none', bg: 'bg.muted' }} onClick={onClose}>
                        <NavLink to={link.to}>{link.label}</NavLink>
                      </ChakraLink>
                    ))}
                  </Stack>
                  {walletSlot}
                  <Button variant="outline" onClick={onLogout}>
                    {t('nav.logout')}
                  </Button>
                </Stack>
              ) : (
                <Stack gap="3">
                  <GradientButton asChild onClick={onClose}>
                    <NavLink to="/authentication/sign-in">{t('nav.login')}</NavLink>
                  </GradientButton>
                  <Button asChild variant="outline" borderRadius="full" onClick={onClose}>
                    <NavLink to="/authentication/sign-up">{t('nav.signUp')}</NavLink>
                  </Button>
                </Stack>
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  )
}
