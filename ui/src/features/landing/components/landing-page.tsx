import { Box, Button, Flex, Heading, HStack, Skeleton, Stack, Text, useBreakpointValue } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuArrowRight, LuSparkles } from 'react-icons/lu'
import { Link, useNavigate } from 'react-router'
import { HeroArt } from '@/components/hero-art'
import { PageContainer } from '@/components/page-container'
import { GradientButton } from '@/components/ui/gradient-button'
import { useSession } from '@/lib/auth'
import { signInPath } from '@/lib/navigation'
import { ACCENT_GRADIENT } from '@/lib/theme'
import { useConnectionState } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { DECK_SIZE, useTrendingNfts } from '../api/trending-nfts'
import { HomeSliders } from './home-sliders'
import { NftDeck } from './nft-deck'
import { StatisticsHexagons } from './statistics-hexagons'

/** Signed in with a wallet: /create-asset; signed in without: the wallet dialog; visitor: sign-in first. */
export function useCreateAction() {
  const navigate = useNavigate()
  const token = useSession((s) => s.token)
  const { status } = useConnectionState()
  const walletType = useWalletStore((s) => s.walletType)
  const openDialog = useWalletStore((s) => s.openDialog)
  return () => {
    if (!token) navigate(signInPath('/create-asset'))
    else if (status === 'connected' && walletType) navigate('/create-asset')
    else openDialog()
  }
}

function DeckArea() {
  const { data, isLoading } = useTrendingNfts()
  const tilted = useBreakpointValue({ base: false, md: true }) ?? false
  if (data && data.length >= DECK_SIZE) return <NftDeck nfts={data.slice(0, DECK_SIZE)} tilted={tilted} />
  if (isLoading && !data)
    return (
      <Box position="relative" w={{ base: '280px', md: '340px' }} h={{ base: '380px', md: '450px' }} mx="auto" data-testid="deck-skeleton">
        <Skeleton position="absolute" inset="0" borderRadius="2xl" transform="rotate(-4deg)" />
        <Skeleton position="absolute" inset="0" borderRadius="2xl" transform="rotate(3deg)" />
      </Box>
    )
  // Fewer than 6 trending NFTs (or the list could not be loaded): artwork instead of the deck.
  return (
    <Box w={{ base: '280px', md: '340px' }} h={{ base: '300px', md: '450px' }} mx="auto" borderRadius="3xl" overflow="hidden" bg="navy.900" transform="rotate(-3deg)" boxShadow="card" data-testid="deck-placeholder">
      <HeroArt />
    </Box>
  )
}

export function LandingPage() {
  const { t } = useTranslation()
  const create = useCreateAction()
  return (
    <Box>
      <Box position="relative" overflow="hidden">
        <Box position="absolute" inset="0" opacity={{ _light: 0.12, _dark: 0.5 }} pointerEvents="none">
          <HeroArt />
        </Box>
        <PageContainer position="relative" py={{ base: '10', md: '20' }}>
          <Flex direction={{ base: 'column', lg: 'row' }} align="center" gap={{ base: '12', lg: '16' }}>
            <Stack flex="1" gap="6" textAlign={{ base: 'center', lg: 'left' }} align={{ base: 'center', lg: 'flex-start' }}>
              <HStack bg="brand.subtle" color="brand.fg" px="3" py="1" borderRadius="full" fontSize="sm" fontWeight="semibold" gap="2">
                <LuSparkles />
                <Text>{t('landing.badge')}</Text>
              </HStack>
              <Heading as="h1" fontSize={{ base: '4xl', md: '6xl' }} lineHeight="1.05" letterSpacing="tight" fontWeight="extrabold" maxW="2xl">
                {t('landing.heroTitle')}
              </Heading>
              <Box h="1.5" w="28" borderRadius="full" bgImage={ACCENT_GRADIENT} />
              <Text fontSize={{ base: 'md', md: 'xl' }} color="fg.muted" maxW="xl">
                {t('landing.heroText')}
              </Text>
              <HStack gap="4" pt="2">
                <GradientButton asChild size="lg" px="8">
                  <Link to="/explore?type=all">
                    {t('landing.explore')} <LuArrowRight />
                  </Link>
                </GradientButton>
                <Button size="lg" variant="outline" borderRadius="full" px="8" onClick={create} data-testid="landing-create">
                  {t('landing.create')}
                </Button>
              </HStack>
            </Stack>
            <Box flex="1" w="full" py="6">
              <DeckArea />
            </Box>
          </Flex>
        </PageContainer>
      </Box>
      <PageContainer>
        <Stack gap="10" align="center">
          <Stack gap="2" textAlign="center">
            <Heading as="h2" size="2xl">
              {t('landing.stats.title')}
            </Heading>
            <Text color="fg.muted">{t('landing.stats.subtitle')}</Text>
          </Stack>
          <StatisticsHexagons />
        </Stack>
      </PageContainer>
      <PageContainer pt="0">
        <HomeSliders />
      </PageContainer>
    </Box>
  )
}
