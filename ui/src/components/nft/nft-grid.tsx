import { Box, Center, SimpleGrid, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { CardSkeleton } from '@/components/skeletons'
import type { Nft } from '@/lib/nft/types'
import { useSentinel } from '@/lib/nft/use-paged-list'
import { EAGER_IMAGES } from '@/lib/image-sources'
import { NftCard } from './nft-card'
import { ListEnd } from '@/components/list-end'

/** Cards show six skeletons while the first page loads. */
export const CARD_SKELETONS = 6

/** Two columns from the narrowest phone on (one card per screen made a list a long scroll), three on wide screens. */
const COLUMNS = { base: 2, lg: 3 }
const GAP = { base: '3', md: '6' }

/**
 * A grid of NFT cards fed by {@link usePagedList}: six skeletons while the first page loads, the
 * empty message when there is nothing, and the next page when the bottom scrolls into view.
 */
export function NftGrid({
  list,
  empty,
  collectionId,
}: {
  list: { items: Nft[]; loadingFirst: boolean; loadingMore: boolean; done: boolean; loadMore: () => void; refresh: () => unknown; error?: unknown }
  empty: ReactNode
  collectionId?: string
}) {
  const sentinel = useSentinel(list.loadMore, !list.loadingFirst && !list.done && !list.error, list.items.length)
  if (list.loadingFirst) {
    return (
      <SimpleGrid columns={COLUMNS} gap={GAP} data-testid="nft-grid-loading">
        {Array.from({ length: CARD_SKELETONS }, (_, i) => (
          <CardSkeleton key={i} />
        ))}
      </SimpleGrid>
    )
  }
  if (list.items.length === 0) {
    return (
      <Center py="16" data-testid="nft-grid-empty">
        {typeof empty === 'string' ? <Text color="fg.muted">{empty}</Text> : empty}
      </Center>
    )
  }
  return (
    <Box>
      <SimpleGrid columns={COLUMNS} gap={GAP} data-testid="nft-grid">
        {list.items.map((nft, index) => (
          <NftCard key={nft._id} nft={nft} collectionId={collectionId} eager={index < EAGER_IMAGES} onChanged={() => void list.refresh()} />
        ))}
      </SimpleGrid>
      <ListEnd sentinel={sentinel} loading={list.loadingMore} testId="nft-grid-sentinel" />
    </Box>
  )
}
