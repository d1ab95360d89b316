import { Box, Button, Center, Flex, HStack, Link as ChakraLink, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuExternalLink } from 'react-icons/lu'
import { ConfirmDialog } from '@/components/nft/confirm-dialog'
import { Price } from '@/components/nft/price'
import { UserAvatar } from '@/components/user-avatar'
import { useAppConfig } from '@/lib/app-config'
import { BID_PAGE_SIZE, bidHistoryPath, useNftInAuction } from '@/lib/nft/api'
import { explorerLink, shortenAddress } from '@/lib/nft/format'
import type { Bid, Paged } from '@/lib/nft/types'
import { usePagedList } from '@/lib/nft/use-paged-list'
import { apiRequest } from '@/lib/api-client'
import { formatDateTime, formatRelative } from '@/lib/format'

/** Bid rows show four skeletons while loading. */
export const BID_SKELETON_ROWS = 4

async function fetchBids(path: string, query: Record<string, string | number | undefined>) {
  return (await apiRequest<Paged<Bid>>(path, { query })).body
}

/**
 * The Recent bid tab: GET /api/nft/nftinauction/{id} for the open auction, then its bids
 * (/api/nft/bidhistory/{id}/{auctionId}/, 10 a page). The owner gets Accept and Reject on the top
 * bid while the auction runs, each behind the spec's confirmation.
 */
export function BidsTab({
  nftId,
  canAnswer,
  onAnswer,
  version,
}: {
  nftId: string
  /** The owner, while the auction runs. */
  canAnswer: boolean
  onAnswer: (accept: boolean) => void
  /** Changes when the NFT changed (a bid, a rejection), to reload the list. */
  version: string
}) {
  const { t, i18n } = useTranslation()
  const { explorerUrl } = useAppConfig()
  const auctions = useNftInAuction(nftId)
  const auctionId = auctions.data?.[0]?.auctionId
  const list = usePagedList<Bid>(auctionId ? bidHistoryPath(nftId, auctionId) : null, { limit: BID_PAGE_SIZE }, fetchBids, {
    onError: (error) => console.error('Could not load bids', error),
  })
  // A bid, a rejection or a sale changed the NFT: reload the open auction and its bids.
  const { refresh } = list
  const { mutate: reloadAuction } = auctions
  const seen = useRef(version)
  useEffect(() => {
    if (seen.current === version) return
    seen.current = version
    void reloadAuction()
    void refresh()
  }, [version, refresh, reloadAuction])
  const [confirm, setConfirm] = useState<null | boolean>(null)

  const loading = auctions.isLoading || list.loadingFirst
  if (loading) {
    return (
      <Stack gap="3" data-testid="bids-loading">
        {Array.from({ length: BID_SKELETON_ROWS }, (_, i) => (
          <Skeleton key={i} h="12" borderRadius="lg" />
        ))}
      </Stack>
    )
  }
  if (!auctionId || list.items.length === 0) {
    return (
      <Center py="8">
        <Text color="fg.muted">{t('nft.noData')}</Text>
      </Center>
    )
  }
  return (
    <Stack gap="2" data-testid="bids-list">
      {list.items.map((bid, index) => {
        const link = explorerLink(explorerUrl, 'tx', bid.transactionHash)
        const top = index === 0 && (!bid.status || bid.status === 'BID')
        return (
          <Flex key={bid.id} align="center" gap="3" p="3" borderWidth="1px" borderRadius="lg" wrap="wrap" data-testid="bid-row">
            <UserAvatar src={bid.bidder?.avatar} fullName={bid.bidder?.fullName} username={bid.bidder?.username ?? bid.bidderAddress} size="sm" />
            <Stack gap="0" flex="1" minW="0">
              <Text fontWeight="semibold" truncate>
                {bid.bidder?.fullName || bid.bidder?.username || shortenAddress(bid.bidderAddress)}
              </Text>
              <Text fontSize="xs" color="fg.subtle" title={formatDateTime(bid.createdAt, i18n.resolvedLanguage)}>
                {formatRelative(bid.createdAt, Date.now(), i18n.resolvedLanguage)}
                {bid.status && bid.status !== 'BID' ? ` · ${t(`nft.bidStatus.${bid.status}`, { defaultValue: bid.status })}` : ''}
              </Text>
            </Stack>
            <Price value={bid.bidAmount} fontWeight="bold" />
            {link && (
              <ChakraLink href={link} target="_blank" rel="noreferrer" aria-label={t('nft.viewTransaction')} color="fg.muted">
                <LuExternalLink />
              </ChakraLink>
            )}
            {top && canAnswer && (
              <HStack w={{ base: '100%', sm: 'auto' }} justify="flex-end">
                <Button size="sm" colorPalette="green" onClick={() => setConfirm(true)}>
                  {t('trade.accept')}
                </Button>
                <Button size="sm" variant="outline" colorPalette="red" onClick={() => setConfirm(false)}>
                  {t('trade.reject')}
                </Button>
              </HStack>
            )}
          </Flex>
        )
      })}
      {!list.done && (
        <Box textAlign="center">
          <Button variant="ghost" size="sm" loading={list.loadingMore} onClick={list.loadMore}>
            {t('nft.moreBids')}
          </Button>
        </Box>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm ? t('trade.acceptTitle') : t('trade.rejectTitle')}
        text={confirm ? t('trade.confirmAccept') : t('trade.confirmReject')}
        confirmLabel={confirm ? t('trade.accept') : t('trade.reject')}
        danger={confirm === false}
        onConfirm={() => onAnswer(!!confirm)}
        onClose={() => setConfirm(null)}
      />
    </Stack>
  )
}
