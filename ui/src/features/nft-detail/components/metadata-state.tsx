import { Alert, Button, Flex, Spinner, Stack, Text } from '@chakra-ui/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuRefreshCw } from 'react-icons/lu'
import { useSWRConfig } from 'swr'
import { notify } from '@/components/ui/toaster'
import { ApiError } from '@/lib/api-client'
import { formatRelative } from '@/lib/format'
import { nftDetailKey } from '@/lib/nft/api'
import { type MetadataStatus, type NftMetadataState, refreshNftMetadata, useNftMetadata } from '../api/nft-metadata'
import type { TranslationKey } from '@/lib/i18n'

const TITLE: Partial<Record<MetadataStatus, TranslationKey>> = {
  PENDING: 'metadata.titlePending',
  RETRYING: 'metadata.titleRetrying',
  FAILED: 'metadata.titleFailed',
}
const ALERT: Partial<Record<MetadataStatus, 'info' | 'warning' | 'error'>> = { PENDING: 'info', RETRYING: 'warning', FAILED: 'error' }

/**
 * The state of an NFT's metadata when the server reads it from the token URI (a token minted
 * without this UI): pending, retrying or failed with the reason, or read; and "Refresh
 * metadata" for anyone, its outcome told by a toast while the page takes the new title and
 * image. Nothing for NFTs their creator described here.
 */
export function MetadataState({ nftId }: { nftId: string }) {
  const { t, i18n } = useTranslation()
  const { data, mutate } = useNftMetadata(nftId)
  const { mutate: revalidate } = useSWRConfig()
  const [asking, setAsking] = useState(false)
  /** A refresh was asked here and its outcome is still to be told. */
  const awaiting = useRef(false)
  const previous = useRef<MetadataStatus | undefined>(undefined)

  useEffect(() => {
    if (!data) return
    const before = previous.current
    previous.current = data.status
    if (before !== 'PENDING' || data.status === 'PENDING') return
    // Read (or not) just now: the NFT's title, image and properties follow.
    if (data.status === 'FETCHED') void revalidate(nftDetailKey(nftId))
    if (awaiting.current) {
      awaiting.current = false
      if (data.status === 'FETCHED') notify('success', t('metadata.refreshed'))
      else notify('error', t('metadata.refreshFailed', { reason: data.reason }))
    }
  }, [data, nftId, revalidate, t])

  if (!data || data.status === 'CREATOR') return null

  const refresh = async () => {
    setAsking(true)
    try {
      const next = await refreshNftMetadata(nftId)
      awaiting.current = true
      previous.current = 'PENDING'
      await mutate(next, { revalidate: false })
    } catch (error) {
      if (error instanceof ApiError && error.statuscode === 429) notify('warning', t('metadata.tooSoon'))
      else {
        console.error('Could not ask for a metadata refresh', error)
        notify('error', t('metadata.refreshError'))
      }
    } finally {
      setAsking(false)
    }
  }

  const button = (
    <Button
      size="xs"
      variant="outline"
      alignSelf="start"
      flexShrink={0}
      loading={asking}
      disabled={data.status === 'PENDING'}
      onClick={() => void refresh()}
      data-testid="metadata-refresh"
    >
      <LuRefreshCw /> {t('metadata.refresh')}
    </Button>
  )

  if (data.status === 'FETCHED') {
    return (
      <Flex gap="3" align="center" justify="space-between" wrap="wrap" fontSize="sm" color="fg.muted" data-testid="metadata-state" data-status={data.status}>
        <Text minW="0">{data.updatedAt ? t('metadata.fetched', { ago: formatRelative(data.updatedAt, Date.now(), i18n.resolvedLanguage) }) : t('metadata.fetchedNow')}</Text>
        {button}
      </Flex>
    )
  }
  return (
    <Alert.Root status={ALERT[data.status] ?? 'info'} borderRadius="lg" data-testid="metadata-state" data-status={data.status}>
      {data.status === 'PENDING' ? <Spinner size="sm" mt="0.5" flexShrink={0} /> : <Alert.Indicator />}
      <Stack gap="2" flex="1" minW="0">
        <Alert.Title>{t(TITLE[data.status] ?? 'metadata.titlePending')}</Alert.Title>
        <Alert.Description>
          <Details state={data} />
        </Alert.Description>
        {button}
      </Stack>
    </Alert.Root>
  )
}

function Details({ state }: { state: NftMetadataState }) {
  const { t, i18n } = useTranslation()
  return (
    <Stack gap="1" fontSize="sm">
      {state.status === 'PENDING' ? (
        <Text>{t('metadata.pending')}</Text>
      ) : (
        <Text wordBreak="break-word" data-testid="metadata-reason">
          {state.reason}
        </Text>
      )}
      {state.status === 'RETRYING' && state.nextAttemptAt && (
        <Text>{t('metadata.nextAttempt', { when: formatRelative(state.nextAttemptAt, Date.now(), i18n.resolvedLanguage) })}</Text>
      )}
      {state.tokenUri && (
        <Text color="fg.muted" fontFamily="mono" fontSize="xs" wordBreak="break-all">
          {t('metadata.tokenUri')}: {state.tokenUri}
        </Text>
      )}
    </Stack>
  )
}
