import { Box, Button, Flex, HStack, Link, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { Price } from '@/components/nft/price'
import { UserAvatar } from '@/components/user-avatar'
import { type Offer, offererName } from '@/lib/offers/api'
import { OfferStateBadge, OfferWhen } from './offer-parts'

/** What the viewer may do with an offer. */
export type OfferRole = { owner: boolean; mine: boolean }

/** The buttons an offer gets: the owner's accept (when acceptable) and reject, the offerer's cancel or withdraw. */
export function offerButtons(offer: Offer, role: OfferRole) {
  return {
    accept: role.owner && !role.mine && offer.acceptable,
    reject: role.owner && !role.mine && offer.withdrawable && !offer.nftBurned,
    cancel: role.mine && offer.withdrawable,
  }
}

/**
 * One offer: who (or `lead`, e.g. the NFT on my offers), the amount, the state and when it
 * expires or closed, and the viewer's buttons.
 */
export function OfferRow({
  offer,
  role,
  lead,
  onAccept,
  onReject,
  onCancel,
}: {
  offer: Offer
  role: OfferRole
  lead?: ReactNode
  onAccept: () => void
  onReject: () => void
  onCancel: () => void
}) {
  const { t } = useTranslation()
  const buttons = offerButtons(offer, role)
  const name = offererName(offer)
  const any = buttons.accept || buttons.reject || buttons.cancel
  return (
    <Flex align="center" gap="3" p="3" borderWidth="1px" borderRadius="lg" wrap="wrap" bg="bg.panel" data-testid="offer-row" data-state={offer.state} data-offerer={offer.offererAddress.toLowerCase()}>
      {lead ? (
        // A phone gives the NFT its own line; the state and the amount go under it.
        <Box flexBasis={{ base: '100%', sm: '0' }} flexGrow={1} minW="0">
          {lead}
        </Box>
      ) : (
        <UserAvatar fullName={offer.offererUsername} username={offer.offererUsername ?? offer.offererAddress} size="sm" />
      )}
      <Stack gap="0.5" flex="1" minW="0">
        {!lead && (
          <HStack gap="1.5" minW="0">
            {offer.offererUserId ? (
              <Link asChild fontWeight="semibold" truncate>
                <RouterLink to={`/user/${offer.offererUserId}`}>{name}</RouterLink>
              </Link>
            ) : (
              <Text fontWeight="semibold" truncate fontFamily={offer.offererUsername ? undefined : 'mono'}>
                {name}
              </Text>
            )}
            {role.mine && (
              <Text as="span" fontSize="xs" color="brand.fg" flexShrink={0}>
                {t('offers.you')}
              </Text>
            )}
          </HStack>
        )}
        <HStack gap="2" wrap="wrap">
          <OfferStateBadge state={offer.state} />
          <OfferWhen offer={offer} />
        </HStack>
      </Stack>
      <Price value={offer.amount} fontWeight="bold" data-testid="offer-amount-value" />
      {any && (
        <HStack w={{ base: '100%', sm: 'auto' }} justify="flex-end" gap="2">
          {buttons.accept && (
            <Button size="sm" colorPalette="green" onClick={onAccept} data-testid="offer-accept">
              {t('trade.accept')}
            </Button>
          )}
          {buttons.reject && (
            <Button size="sm" variant="outline" colorPalette="red" onClick={onReject} data-testid="offer-reject">
              {t('trade.reject')}
            </Button>
          )}
          {buttons.cancel && (
            <Button size="sm" variant="outline" onClick={onCancel} data-testid="offer-cancel">
              {offer.state === 'ACTIVE' && !offer.nftBurned ? t('offers.cancel') : t('offers.withdraw')}
            </Button>
          )}
        </HStack>
      )}
    </Flex>
  )
}
