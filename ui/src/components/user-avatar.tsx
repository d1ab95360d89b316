import { Avatar, type AvatarRootProps } from '@chakra-ui/react'
import { initials } from '@/lib/auth'
import { IMAGE_SIZES, RENDITION_WIDTHS, useImageSources } from '@/lib/image-sources'

/** A stable colour from the username, for avatars without a picture. */
export function colorFromName(name: string) {
  let hash = 0
  for (let i = 0; i < name.length; i += 1) hash = (hash * 31 + name.charCodeAt(i)) | 0
  const hue = Math.abs(hash) % 360
  return `hsl(${hue}, 62%, 52%)`
}

/** The avatar sizes of the theme, in CSS pixels: a small avatar's picture is its smallest rendition. */
const AVATAR_PIXELS: Record<string, number> = { '2xs': 24, xs: 32, sm: 36, md: 40, lg: 44, xl: 48, '2xl': 64 }

/**
 * The avatar picture (the rendition that fills its box: avatars are at most 8rem wide), or two
 * upper-cased letters of the full name on a colour from the username.
 */
export function UserAvatar({
  src,
  fullName,
  username,
  ...rest
}: { src?: string | null; fullName?: string | null; username?: string | null } & AvatarRootProps) {
  const pixels = typeof rest.size === 'string' ? AVATAR_PIXELS[rest.size] : undefined
  const image = useImageSources(src, pixels ? `${pixels}px` : IMAGE_SIZES.avatar, pixels ? RENDITION_WIDTHS[0] : 240)
  return (
    <Avatar.Root {...rest} bg={colorFromName(username || fullName || '')} color="white">
      <Avatar.Fallback fontWeight="bold">{initials(fullName || username)}</Avatar.Fallback>
      {src ? <Avatar.Image {...image} alt={fullName ?? username ?? ''} /> : null}
    </Avatar.Root>
  )
}
