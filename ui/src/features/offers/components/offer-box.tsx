import { Alert, Button, Flex, HStack, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { Price } from '@/components/nft/price'
import type { Offer } from '@/lib/offers/api'
import { OfferWhen } from './offer-parts'

/**
 * The trade panel's offer part for a visitor of an NFT not in an auction: "Make offer", or the
 * viewer's open offer with Change (a new offer replaces it) and Cancel (or Withdraw once expired).
 */
export function OfferBox({ mine, onMake, onCancel, primary }: { mine: Offer | null; onMake: () => void; onCancel: (offer: Offer) => void; primary: boolean }) {
  const { t } = useTranslation()
  if (!mine) {
    return (
      <Button variant={primary ? 'solid' : 'outline'} colorPalette="brand" size="lg" w="100%" flexShrink={0} onClick={onMake} data-testid="make-offer">
        {t('offers.make')}
      </Button>
    )
  }
  const expired = mine.state === 'EXPIRED' || mine.nftBurned
  return (
    <Alert.Root status={expired ? 'warning' : 'info'} borderRadius="lg" data-testid="my-offer">
      <Alert.Indicator />
      <Stack gap="2" flex="1" minW="0">
        <Flex justify="space-between" align="center" gap="3" wrap="wrap">
          <Stack gap="0">
            <Text fontSize="xs" color="fg.muted" textTransform="uppercase">
              {t('offers.yourOffer')}
            </Text>
            <Price value={mine.amount} fontWeight="bold" fontSize="lg" />
          </Stack>
          <OfferWhen offer={mine} />
        </Flex>
        <HStack gap="2" wrap="wrap">
          {!mine.nftBurned && (
            <Button size="sm" colorPalette="brand" onClick={onMake} data-testid="change-offer">
              {t('offers.change')}
            </Button>
          )}
          <Button size="sm" variant="outline" onClick={() => onCancel(mine)} data-testid="cancel-my-offer">
            {expired ? t('offers.withdraw') : t('offers.cancel')}
          </Button>
        </HStack>
      </Stack>
    </Alert.Root>
  )
}
