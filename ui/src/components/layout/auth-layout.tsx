import { Box, Flex, Heading, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ACCENT_GRADIENT } from '@/lib/theme'
import { HeroArt } from '../hero-art'

/** Authentication screens: a split view with the hero on wide screens, the form on the right. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Flex minH={{ base: 'auto', md: 'calc(100vh - 4rem)' }} align="stretch">
      <Box
        hideBelow="md"
        flex="1"
        position="relative"
        overflow="hidden"
        bg={{ _light: '#1a1640', _dark: 'navy.900' }}
        color="white"
        px="12"
        py="16"
      >
        <Box position="absolute" inset="0" opacity="0.9">
          <HeroArt />
        </Box>
        <Stack position="relative" gap="5" maxW="md" mt="10">
          <Heading as="p" fontSize="5xl" lineHeight="1.1" fontWeight="extrabold">
            {t('auth.hero.title')}
          </Heading>
          <Box h="1.5" w="24" borderRadius="full" bgImage={ACCENT_GRADIENT} />
          <Text fontSize="lg" color="whiteAlpha.800">
            {t('auth.hero.subtitle')}
          </Text>
        </Stack>
      </Box>
      <Flex flex="1" align="center" justify="center" px={{ base: '4', md: '10' }} py={{ base: '8', md: '12' }}>
        <Box w="full" maxW="md">
          {children}
        </Box>
      </Flex>
    </Flex>
  )
}
