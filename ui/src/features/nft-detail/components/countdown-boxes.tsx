import { HStack, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { useCountdown } from '@/lib/nft/countdown'

/** Days, hours, minutes and seconds left, ticking every second. */
export function CountdownBoxes({ end }: { end: string }) {
  const { t } = useTranslation()
  const left = useCountdown(end)
  if (!left) return null
  const parts = [
    ['days', left.days],
    ['hours', left.hours],
    ['minutes', left.minutes],
    ['seconds', left.seconds],
  ] as const
  return (
    <HStack gap="2" data-testid="countdown" aria-live="off">
      {parts.map(([unit, value]) => (
        <Stack key={unit} gap="0" align="center" bg="bg.muted" borderRadius="lg" px="3" py="2" minW="14">
          <Text fontSize="xl" fontWeight="bold" fontVariantNumeric="tabular-nums" data-testid={`countdown-${unit}`}>
            {String(value).padStart(2, '0')}
          </Text>
          <Text fontSize="2xs" color="fg.subtle" textTransform="uppercase">
            {t(`nft.countdown.${unit}`)}
          </Text>
        </Stack>
      ))}
    </HStack>
  )
}
