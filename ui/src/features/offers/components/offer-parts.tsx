import { Badge, Text, type TextProps } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { formatDateTime, formatRelative } from '@/lib/format'
import type { Offer, OfferState } from '@/lib/offers/api'

/** ACTIVE blue, ACCEPTED green, REJECTED red, CANCELLED and EXPIRED a calm grey. */
export const OFFER_STATE_COLOR: Record<OfferState, string> = { ACTIVE: 'blue', ACCEPTED: 'green', REJECTED: 'red', CANCELLED: 'gray', EXPIRED: 'orange' }

export function OfferStateBadge({ state }: { state: OfferState }) {
  const { t } = useTranslation()
  return (
    <Badge colorPalette={OFFER_STATE_COLOR[state] ?? 'gray'} variant={state === 'ACTIVE' || state === 'ACCEPTED' ? 'solid' : 'subtle'} borderRadius="full" px="2.5" data-testid="offer-state" data-state={state}>
      {t(`offers.state.${state}`, { defaultValue: state })}
    </Badge>
  )
}

/** "Expires in 6 days" / "Expired 2 minutes ago" for an open offer; when it closed otherwise. */
export function OfferWhen({ offer, now = Date.now(), ...rest }: { offer: Offer; now?: number } & TextProps) {
  const { t, i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  const open = offer.state === 'ACTIVE' || offer.state === 'EXPIRED'
  const at = open ? offer.expiresAt : (offer.closedAt ?? offer.updatedAt)
  const when = formatRelative(at, now, lng)
  const text = open ? (new Date(offer.expiresAt).getTime() > now ? t('offers.expiresIn', { when }) : t('offers.expiredAgo', { when })) : when
  return (
    <Text fontSize="xs" color="fg.subtle" title={formatDateTime(at, lng)} data-testid="offer-when" {...rest}>
      {text}
    </Text>
  )
}
