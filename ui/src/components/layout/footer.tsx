import { Box, Grid, HStack, IconButton, Link as ChakraLink, Separator, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { FaDiscord, FaInstagram, FaTelegram, FaXTwitter } from 'react-icons/fa6'
import { Link } from 'react-router'
import { Logo } from '../logo'
import type { TranslationKey } from '@/lib/i18n'

export const COPYRIGHT_YEAR = 2022

const SOCIAL_LINKS = [
  { href: 'https://twitter.com', label: 'X (Twitter)', icon: FaXTwitter },
  { href: 'https://www.instagram.com', label: 'Instagram', icon: FaInstagram },
  { href: 'https://discord.com', label: 'Discord', icon: FaDiscord },
  { href: 'https://telegram.org', label: 'Telegram', icon: FaTelegram },
]

type FooterLink = { to: string; key: TranslationKey }

const MARKETPLACE_LINKS: FooterLink[] = [
  { to: '/explore?type=all', key: 'footer.explore' },
  { to: '/create-asset', key: 'footer.create' },
  { to: '/trending-sellers', key: 'footer.sellers' },
  { to: '/trending-creators', key: 'footer.creators' },
  { to: '/stats', key: 'insight.nav' },
]

const COMPANY_LINKS: FooterLink[] = [
  { to: '/privacy-policy', key: 'footer.privacy' },
  { to: '/terms-and-condition', key: 'footer.terms' },
  { to: '/frequently-asked-questions', key: 'footer.faqs' },
  { to: '/contact-us', key: 'footer.contact' },
  { to: '/transparency', key: 'footer.transparency' },
]

function LinkColumn({ title, links }: { title: string; links: FooterLink[] }) {
  const { t } = useTranslation()
  return (
    <Stack gap="3">
      <Text fontWeight="bold" fontSize="sm" textTransform="uppercase" letterSpacing="wider" color="fg.subtle">
        {title}
      </Text>
      {links.map((link) => (
        <ChakraLink key={link.to} asChild color="fg.muted" fontSize="sm" _hover={{ color: 'fg' }}>
          <Link to={link.to}>{t(link.key)}</Link>
        </ChakraLink>
      ))}
    </Stack>
  )
}

export function Footer() {
  const { t } = useTranslation()
  return (
    <Box as="footer" borderTopWidth="1px" bg="bg.subtle" mt="16" pb={{ base: '20', md: '0' }}>
      <Box maxW="7xl" mx="auto" px={{ base: '4', md: '8' }} py="12">
        <Grid templateColumns={{ base: '1fr', sm: '1fr 1fr', md: '2fr 1fr 1fr' }} gap="10">
          <Stack gap="4" gridColumn={{ sm: 'span 2', md: 'auto' }}>
            <Logo />
            <Text color="fg.muted" fontSize="sm" maxW="sm">
              {t('footer.tagline')}
            </Text>
            <HStack gap="2">
              {SOCIAL_LINKS.map((s) => (
                <IconButton key={s.href} asChild variant="subtle" size="sm" borderRadius="full" aria-label={s.label}>
                  <a href={s.href} target="_blank" rel="noreferrer">
                    <s.icon />
                  </a>
                </IconButton>
              ))}
            </HStack>
          </Stack>
          <LinkColumn title={t('footer.marketplace')} links={MARKETPLACE_LINKS} />
          <LinkColumn title={t('footer.company')} links={COMPANY_LINKS} />
        </Grid>
        <Separator my="8" />
        <Text fontSize="sm" color="fg.subtle" textAlign={{ base: 'center', md: 'left' }}>
          {t('footer.copyright', { year: COPYRIGHT_YEAR })}
        </Text>
      </Box>
    </Box>
  )
}
