import { Box, Center, SimpleGrid, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { useSentinel } from '@/lib/nft/use-paged-list'
import type { Collection } from '@/lib/collection/types'
import { CardSkeleton } from '../skeletons'
import { ListEnd } from '@/components/list-end'

/** Cards and skeletons shown while a page of cards loads. */
export const CARD_SKELETONS = 6

/**
 * A grid of collection cards: six skeletons while the first page loads, the empty message when
 * there is none, and the next page loaded as the end of the grid scrolls into view.
 */
export function CollectionGrid({
  list,
  emptyText,
  renderCard,
}: {
  list: { items: Collection[]; loadingFirst: boolean; loadingMore: boolean; done: boolean; loadMore: () => void; error?: unknown }
  emptyText: string
  /** The card of `collection`, the `index`-th in the grid. */
  renderCard: (collection: Collection, index: number) => ReactNode
}) {
  const { items } = list
  const sentinel = useSentinel(list.loadMore, !list.loadingFirst && !list.done && !list.error, items.length)
  if (list.loadingFirst) {
    return (
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="6">
        {Array.from({ length: CARD_SKELETONS }, (_, i) => (
          <CardSkeleton key={i} />
        ))}
      </SimpleGrid>
    )
  }
  if (items.length === 0) {
    return (
      <Center py="16">
        <Text color="fg.muted" data-testid="empty-message">
          {emptyText}
        </Text>
      </Center>
    )
  }
  return (
    <Box>
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="6">
        {items.map((c, index) => (
          <Box key={c._id}>{renderCard(c, index)}</Box>
        ))}
      </SimpleGrid>
      <ListEnd sentinel={sentinel} loading={list.loadingMore} />
    </Box>
  )
}
