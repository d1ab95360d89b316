import { Box, Center, Image } from '@chakra-ui/react'
import { LuImageOff } from 'react-icons/lu'
import { useImageSources } from '@/lib/image-sources'

/** A small square of an NFT's image (cart and offer rows). */
export function NftThumb({ file, title, size = '12' }: { file: string | null | undefined; title: string; size?: string }) {
  const image = useImageSources(file, '64px', 64)
  return (
    <Box w={size} h={size} flexShrink={0} borderRadius="md" overflow="hidden" bg="bg.muted">
      {file ? (
        <Image {...image} alt={title} w="100%" h="100%" objectFit="cover" loading="lazy" />
      ) : (
        <Center h="100%" color="fg.subtle">
          <LuImageOff />
        </Center>
      )}
    </Box>
  )
}
