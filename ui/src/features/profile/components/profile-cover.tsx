import { Box, Image } from '@chakra-ui/react'
import { HeroArt } from '@/components/hero-art'
import { IMAGE_SIZES, loadingHints, useImageSources } from '@/lib/image-sources'

/**
 * The cover picture, or the default artwork when there is none (or it fails to load). It tops its
 * page, so it loads at once and first.
 */
export function ProfileCover({
  src,
  height = { base: '140px', md: '220px' },
  radius = '2xl',
}: {
  src?: string | null
  height?: Record<string, string> | string
  radius?: string
}) {
  const image = useImageSources(src, IMAGE_SIZES.cover, 960)
  return (
    <Box position="relative" h={height} borderRadius={radius} overflow="hidden" bg="navy.900" data-testid="profile-cover">
      <Box position="absolute" inset="0">
        <HeroArt />
      </Box>
      {src ? <Image position="absolute" inset="0" {...image} {...loadingHints(true)} alt="" w="100%" h="100%" objectFit="cover" onError={(e) => (e.currentTarget.style.display = 'none')} /> : null}
    </Box>
  )
}
