import { Box, Flex, Icon, Link as ChakraLink, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { NavLink, useLocation } from 'react-router'
import { NAV_LINKS, isActive } from './nav-links'

/** Narrow screens: five icons (home, explore, auction, collections, create) fixed at the bottom. */
export function BottomBar() {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  return (
    <Box
      as="nav"
      aria-label={t('nav.main')}
      hideFrom="md"
      position="fixed"
      bottom="0"
      insetX="0"
      zIndex="sticky"
      bg="bg.panel"
      borderTopWidth="1px"
      pb="env(safe-area-inset-bottom)"
      data-testid="bottom-bar"
    >
      <Flex justify="space-around" h="16" align="center">
        {NAV_LINKS.filter((link) => link.inBottomBar !== false).map((link) => {
          const active = isActive(pathname, link.match)
          return (
            <ChakraLink
              key={link.to}
              asChild
              flexDirection="column"
              alignItems="center"
              gap="0.5"
              color={active ? 'brand.fg' : 'fg.muted'}
              _hover={{ textDecoration: 'none', color: 'fg' }}
              aria-label={t(link.labelKey)}
            >
              <NavLink to={link.to}>
                <Icon as={link.icon} boxSize="5" />
                <Text fontSize="2xs" fontWeight={active ? 'bold' : 'medium'}>
                  {t(link.labelKey)}
                </Text>
              </NavLink>
            </ChakraLink>
          )
        })}
      </Flex>
    </Box>
  )
}
