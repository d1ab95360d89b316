import { HStack, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuBadgeCheck } from 'react-icons/lu'
import { Link } from 'react-router'
import { UserAvatar } from '@/components/user-avatar'
import { useSession } from '@/lib/auth'
import { cardUsername, profilePath, shortenAddress } from '@/lib/nft/format'
import type { NftPerson } from '@/lib/nft/types'

/**
 * The verified check as creator chips draw it: a plain element here, in the cards' chunk
 * (components/moderation/verified-badge would be a chunk of its own on every first visit). Named
 * "Verified" (its tooltip too).
 */
function CardVerifiedBadge({ verified, size = 14 }: { verified: boolean | null | undefined; size?: number }) {
  const { t } = useTranslation()
  if (verified !== true) return null
  const label = t('moderation.verified')
  return (
    <span role="img" aria-label={label} title={label} style={{ display: 'inline-flex', flexShrink: 0, color: 'var(--chakra-colors-blue-solid)' }} data-testid="verified-badge">
      <LuBadgeCheck size={size} aria-hidden />
    </span>
  )
}

/** How the read models name a deleted account (`deleted-` and 22 characters): not a name to show. */
export const DELETED_USERNAME_PREFIX = 'deleted-'

/**
 * A creator or owner: avatar and username (cut at 7), linking to /myprofile for the signed-in user
 * and /user/{id} for others; an address linked to no account shows the short address, no link. A
 * deleted account has no name any more: its short address, linking to its "Deleted user" page.
 */
export function PersonChip({
  label,
  person,
  address,
  full = false,
  verified = false,
  testId,
}: {
  label: string
  person: NftPerson
  address?: string
  full?: boolean
  /** A verified creator: the check beside the name. */
  verified?: boolean
  /** Names the chip for tests (`nft-owner`, `nft-creator`). */
  testId?: string
}) {
  const { t } = useTranslation()
  const me = useSession((s) => s.user?.userId)
  const to = profilePath(person?.userId, me)
  const erased = !!person?.username?.startsWith(DELETED_USERNAME_PREFIX)
  const username = erased ? null : person?.username
  const name = username ? (full ? username : cardUsername(username)) : address ? shortenAddress(address) : erased ? t('profile.deletedUser') : ''
  const body = (
    <HStack gap="2" minW="0" data-erased={erased || undefined} data-testid={testId}>
      <UserAvatar src={erased ? null : person?.avatar} fullName={erased ? null : person?.fullName} username={username ?? address} size={full ? 'sm' : 'xs'} />
      <Stack gap="0" minW="0">
        <Text fontSize="2xs" color="fg.subtle" textTransform="uppercase" letterSpacing="wide">
          {label}
        </Text>
        <HStack gap="1" minW="0">
          <Text fontSize={full ? 'sm' : 'xs'} fontWeight="semibold" truncate>
            {name}
          </Text>
          <CardVerifiedBadge verified={verified} size={full ? 16 : 13} />
        </HStack>
      </Stack>
    </HStack>
  )
  if (!to) return body
  return (
    <Link to={to} onClick={(e) => e.stopPropagation()} data-testid="person-link" style={{ minWidth: 0 }}>
      {body}
    </Link>
  )
}
