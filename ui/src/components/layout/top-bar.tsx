import { Box, Button, Flex, HStack, IconButton, Link as ChakraLink } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LuMenu } from 'react-icons/lu'
import { Link, NavLink, useLocation } from 'react-router'
import { Logo } from '../logo'
import { GradientButton } from '../ui/gradient-button'
import { NAV_LINKS, isActive } from './nav-links'

/**
 * Desktop: logo, Home, Explore, Auction, Collections, Create asset, then Sign up / Login for
 * visitors or the wallet button and the avatar menu. Narrow screens: logo, Login for visitors and
 * the drawer button.
 */
export function TopBar({
  signedIn,
  noticesSlot,
  walletSlot,
  userMenuSlot,
  onOpenDrawer,
  cartSlot,
}: {
  signedIn: boolean
  /** The notifications bell (signed in). */
  noticesSlot?: ReactNode
  walletSlot: ReactNode
  userMenuSlot: ReactNode
  onOpenDrawer: () => void
  /** The cart icon (every width, signed in or not). */
  cartSlot?: ReactNode
}) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg={{ _light: 'rgba(246,245,251,0.85)', _dark: 'rgba(9,8,24,0.8)' }}
      backdropFilter="saturate(180%) blur(14px)"
      borderBottomWidth="1px"
    >
      {/* The logo and the right-hand group keep their size; the links take what is left and, where a
          language's labels are too long for it (Tamil, Hindi), scroll sideways rather than push the
          avatar out of the page column. */}
      <Flex maxW="7xl" mx="auto" px={{ base: '4', md: '8' }} h="16" align="center" justify="space-between" gap={{ base: '2', md: '3', xl: '4' }}>
        {/* On a phone the name gives way (clipped) so Login and the menu button always fit. */}
        <ChakraLink asChild flexShrink={{ base: '1', md: '0' }} minW="0" overflow="hidden" _hover={{ textDecoration: 'none' }} aria-label={t('nav.home')}>
          <Link to="/">
            <Logo compact />
          </Link>
        </ChakraLink>

        <HStack
          as="nav"
          gap={{ md: '0', xl: '1' }}
          hideBelow="md"
          aria-label={t('nav.main')}
          flex="0 1 auto"
          minW="0"
          overflowX="auto"
          css={{ scrollbarWidth: 'none', '&::-webkit-scrollbar': { display: 'none' } }}
          data-testid="main-nav"
        >
          {NAV_LINKS.map((link) => {
            const active = isActive(pathname, link.match)
            return (
              <ChakraLink
                key={link.to}
                asChild
                px={{ md: '2', '2xl': '3' }}
                flexShrink="0"
                py="2"
                borderRadius="full"
                fontWeight="medium"
                fontSize="sm"
                whiteSpace="nowrap"
                color={active ? 'fg' : 'fg.muted'}
                bg={active ? 'bg.muted' : 'transparent'}
                _hover={{ color: 'fg', textDecoration: 'none', bg: 'bg.muted' }}
              >
                <NavLink to={link.to}>{t(link.labelKey)}</NavLink>
              </ChakraLink>
            )
          })}
        </HStack>

        <HStack gap={{ md: '1.5', xl: '2' }} hideBelow="md" flexShrink="0">
          {cartSlot}
          {signedIn ? (
            <>
              {noticesSlot}
              {walletSlot}
              {userMenuSlot}
            </>
          ) : (
            <>
              <Button asChild variant="ghost" size="sm" borderRadius="full">
                <Link to="/authentication/sign-up">{t('nav.signUp')}</Link>
              </Button>
              <GradientButton asChild size="sm">
                <Link to="/authentication/sign-in">{t('nav.login')}</Link>
              </GradientButton>
            </>
          )}
        </HStack>

        <HStack gap={cartSlot ? '0.5' : '1'} hideFrom="md" flexShrink="0">
          {cartSlot}
          {signedIn ? noticesSlot : (
            <GradientButton asChild size="sm" data-testid="mobile-login">
              <Link to="/authentication/sign-in">{t('nav.login')}</Link>
            </GradientButton>
          )}
          <IconButton variant="ghost" aria-label={t('nav.openMenu')} onClick={onOpenDrawer} data-testid="drawer-button">
            <LuMenu />
          </IconButton>
        </HStack>
      </Flex>
    </Box>
  )
}
