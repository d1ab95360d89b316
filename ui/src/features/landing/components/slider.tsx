import { Box, Button, Center, Flex, Heading, HStack, IconButton, Text } from '@chakra-ui/react'
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuArrowRight, LuChevronLeft, LuChevronRight } from 'react-icons/lu'
import { Link } from 'react-router'

/** Items per view: 3, 2 on narrow screens (below md), 1 on very narrow ones (below sm). */
export const SLIDE_COLUMNS = { base: '100%', sm: 'calc((100% - 1.5rem) / 2)', md: 'calc((100% - 3rem) / 3)' }
/** Skeletons while a slider loads: one view's worth. */
export const SLIDER_SKELETONS = 3

/**
 * A horizontal slider built on CSS scroll-snap (no carousel library): 3 items per view, 2 on
 * narrow screens, 1 on very narrow ones; the arrows scroll by one view and are disabled at the
 * ends; touch and trackpad scrolling snap to items. Skeletons while loading, `emptyText` when
 * there is nothing.
 */
export function Slider<T>({
  title,
  viewAllTo,
  items,
  loading,
  emptyText,
  renderItem,
  itemKey,
  skeleton,
  testId,
}: {
  title: string
  viewAllTo: string
  items: T[] | undefined
  loading: boolean
  emptyText: string
  renderItem: (item: T) => ReactNode
  itemKey: (item: T) => string
  skeleton: ReactNode
  testId?: string
}) {
  const { t } = useTranslation()
  const track = useRef<HTMLDivElement>(null)
  const [edges, setEdges] = useState({ start: true, end: true })

  const measure = useCallback(() => {
    const el = track.current
    if (!el) return
    setEdges({ start: el.scrollLeft <= 2, end: el.scrollLeft + el.clientWidth >= el.scrollWidth - 2 })
  }, [])
  useEffect(() => {
    measure()
    const el = track.current
    if (!el || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [measure, items])

  const scroll = (direction: 1 | -1) => {
    const el = track.current
    if (!el) return
    el.scrollBy({ left: direction * el.clientWidth, behavior: 'smooth' })
  }

  const showItems = !!items && items.length > 0
  return (
    <Box as="section" data-testid={testId}>
      <Flex justify="space-between" align="center" mb="5" gap="3" wrap="wrap">
        <Heading as="h2" size={{ base: 'xl', md: '2xl' }}>
          {title}
        </Heading>
        <HStack gap="2">
          <IconButton variant="outline" borderRadius="full" size="sm" aria-label={t('home.previous')} onClick={() => scroll(-1)} disabled={!showItems || edges.start}>
            <LuChevronLeft />
          </IconButton>
          <IconButton variant="outline" borderRadius="full" size="sm" aria-label={t('home.next')} onClick={() => scroll(1)} disabled={!showItems || edges.end}>
            <LuChevronRight />
          </IconButton>
          <Button asChild variant="ghost" size="sm" borderRadius="full" color="brand.fg">
            <Link to={viewAllTo}>
              {t('home.viewAll')} <LuArrowRight />
            </Link>
          </Button>
        </HStack>
      </Flex>
      {loading && !showItems ? (
        <Box display="grid" gridAutoFlow="column" gridAutoColumns={SLIDE_COLUMNS} gap="6" overflow="hidden">
          {Array.from({ length: SLIDER_SKELETONS }, (_, i) => (
            <Box key={i}>{skeleton}</Box>
          ))}
        </Box>
      ) : !showItems ? (
        <Center py="12" borderWidth="1px" borderStyle="dashed" borderRadius="2xl">
          <Text color="fg.muted" data-testid="slider-empty">
            {emptyText}
          </Text>
        </Center>
      ) : (
        <Box
          ref={track}
          onScroll={measure}
          display="grid"
          gridAutoFlow="column"
          gridAutoColumns={SLIDE_COLUMNS}
          gap="6"
          overflowX="auto"
          pb="3"
          css={{ scrollSnapType: 'x mandatory', scrollbarWidth: 'none', '&::-webkit-scrollbar': { display: 'none' }, overscrollBehaviorX: 'contain' }}
          data-testid="slider-track"
        >
          {items.map((item) => (
            <Box key={itemKey(item)} css={{ scrollSnapAlign: 'start' }} minW="0">
              {renderItem(item)}
            </Box>
          ))}
        </Box>
      )}
    </Box>
  )
}
