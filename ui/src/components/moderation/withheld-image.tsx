import { Center, Image, type ImageProps, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuImageOff } from 'react-icons/lu'
import { useImageSources } from '@/lib/image-sources'

/**
 * An image that may be withheld: a file every NFT of which was hidden answers 451, a missing one
 * 404. Either way a neutral placeholder takes its place instead of the browser's broken image.
 */
export function WithheldImage({ src, sizes, alt, label = false, ...rest }: { src: string | null | undefined; sizes: string; alt: string; label?: boolean } & Omit<ImageProps, 'src'>) {
  const { t } = useTranslation()
  const image = useImageSources(src, sizes)
  const [failed, setFailed] = useState<string | null>(null)
  if (!src || failed === src) {
    return (
      <Center w="100%" h="100%" color="fg.subtle" bg="bg.muted" flexDirection="column" gap="1" data-testid="image-withheld">
        <LuImageOff size="24" aria-hidden />
        {label ? <Text fontSize="xs">{t('moderation.imageUnavailable')}</Text> : null}
      </Center>
    )
  }
  return <Image {...image} alt={alt} w="100%" h="100%" objectFit="cover" onError={() => setFailed(src)} {...rest} />
}
