import { Box, Center, SimpleGrid, Spinner, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { useInfiniteSentinel } from '@/lib/paged'
import type { Collection } from '@/lib/collection/types'
import { CardSkeleton } from '../skeletons'

/** Cards and skeletons shown while a page of cards loads. */
export const CARD_SKELETONS = 6

/**
 * A grid of collection cards: six skeletons while the first page loads, the empty message when
 * there is none, and the next page loaded as the end of the grid scrolls into view.
 */
export function CollectionGrid({
  items,
  isLoadingFirst,
  isLoadingMore,
  hasMore,
  loadMore,
  emptyText,
  renderCard,
}: {
  items: Collection[]
  isLoadingFirst: boolean
  isLoadingMore: boolean
  hasMore: boolean
  loadMore: () => void
  emptyText: string
  renderCard: (collection: Collection) => ReactNode
}) {
  const sentinel = useInfiniteSentinel(loadMore, hasMore, items.length)
  if (isLoadingFirst) {
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
        {items.map((c) => (
          <Box key={c._id}>{renderCard(c)}</Box>
        ))}
      </SimpleGrid>
      <Box ref={sentinel} h="1px" />
      {isLoadingMore ? (
        <Center py="6">
          <Spinner color="brand.solid" />
        </Center>
      ) : null}
    </Box>
  )
}
