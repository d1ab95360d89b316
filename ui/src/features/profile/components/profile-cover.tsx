import { Box, Image } from '@chakra-ui/react'
import { HeroArt } from '@/components/hero-art'

/** The cover picture, or the default artwork when there is none (or it fails to load). */
export function ProfileCover({
  src,
  height = { base: '140px', md: '220px' },
  radius = '2xl',
}: {
  src?: string | null
  height?: Record<string, string> | string
  radius?: string
}) {
  return (
    <Box position="relative" h={height} borderRadius={radius} overflow="hidden" bg="navy.900" data-testid="profile-cover">
      <Box position="absolute" inset="0">
        <HeroArt />
      </Box>
      {src ? <Image position="absolute" inset="0" src={src} alt="" w="100%" h="100%" objectFit="cover" onError={(e) => (e.currentTarget.style.display = 'none')} /> : null}
    </Box>
  )
}
