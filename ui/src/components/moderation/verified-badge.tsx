import { Box, type BoxProps } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuBadgeCheck } from 'react-icons/lu'

/**
 * The check an admin gave a creator or a collection, beside its name: an image named "Verified"
 * (its tooltip too). Nothing when `verified` is not true (fields the server does not send yet
 * read as false).
 */
export function VerifiedBadge({ verified, size = 16, ...rest }: { verified: boolean | null | undefined; size?: number } & BoxProps) {
  const { t } = useTranslation()
  if (verified !== true) return null
  return (
    <Box
      as="span"
      role="img"
      aria-label={t('moderation.verified')}
      title={t('moderation.verified')}
      display="inline-flex"
      flexShrink={0}
      color="blue.solid"
      verticalAlign="middle"
      data-testid="verified-badge"
      {...rest}
    >
      <LuBadgeCheck size={size} aria-hidden />
    </Box>
  )
}
