import { Center, Flex, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '@/lib/format'
import { UserAvatar } from '@/components/user-avatar'
import { useNftHistory } from '@/lib/nft/api'
import { shortenAddress } from '@/lib/nft/format'

/** The History tab: who did what and when (GET /api/nft/nfthistory/{id}, body.data). */
export function HistoryTab({ nftId }: { nftId: string }) {
  const { t, i18n } = useTranslation()
  const { data, isLoading } = useNftHistory(nftId)
  if (isLoading) {
    return (
      <Stack gap="3">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} h="12" borderRadius="lg" />
        ))}
      </Stack>
    )
  }
  if (!data || data.length === 0) {
    return (
      <Center py="8">
        <Text color="fg.muted">{t('nft.noData')}</Text>
      </Center>
    )
  }
  return (
    <Stack gap="2" data-testid="history-list">
      {data.map((event, i) => (
        <Flex key={event._id ?? event.id ?? i} align="center" gap="3" p="3" borderWidth="1px" borderRadius="lg" data-testid="history-row">
          <UserAvatar src={event.avatar} fullName={event.fullName} username={event.username ?? event.address} size="sm" />
          <Stack gap="0" flex="1" minW="0">
            <Text fontWeight="semibold" truncate>
              {event.fullName || event.username || shortenAddress(event.address)}
            </Text>
            <Text fontSize="sm" color="fg.muted">
              {t(`nft.events.${event.typeOfEvent}`, { defaultValue: event.typeOfEvent })}
            </Text>
          </Stack>
          <Text fontSize="xs" color="fg.subtle" textAlign="right">
            {formatDateTime(event.timestamp, i18n.resolvedLanguage)}
          </Text>
        </Flex>
      ))}
    </Stack>
  )
}
