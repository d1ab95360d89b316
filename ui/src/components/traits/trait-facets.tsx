import { Badge, Box, Button, Checkbox, Flex, Heading, Skeleton, Stack, Text } from '@chakra-ui/react'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuSlidersHorizontal } from 'react-icons/lu'
import { formatCount } from '@/lib/format'
import { type Facet, type FacetScope, useFacets } from '@/lib/traits/facets'
import { selectedCount, type TraitSelection, useTraitFilter } from '@/lib/traits/trait-filter'

const FacetsDrawer = lazy(() => import('./facets-drawer').then((m) => ({ default: m.FacetsDrawer })))

/** Values shown per trait until "show all". */
export const TOP_VALUES = 8
/** Values asked for a trait shown whole (the API's limit). */
export const ALL_VALUES = 200

/** The values of a trait to show: the top ones (and the chosen ones), or all when expanded. */
export function shownValues(facet: Facet, expanded: boolean) {
  return expanded ? facet.values : facet.values.filter((v, i) => i < TOP_VALUES || v.selected)
}

type PanelProps = {
  facets: Facet[] | undefined
  loading: boolean
  /** The counts shown are the previous filters' while the new ones load. */
  stale?: boolean
  /** The trait filters the counts shown were counted with. */
  countedFor?: readonly string[]
  selection: TraitSelection
  expanded: ReadonlySet<string>
  onToggle: (name: string, value: string) => void
  onExpand: (name: string) => void
  onClear: () => void
}

/** The traits and their values with counts, each a checkbox; "show all" past the top values. */
export function FacetPanel({ facets, loading, stale = false, countedFor, selection, expanded, onToggle, onExpand, onClear }: PanelProps) {
  const { t, i18n } = useTranslation()
  const chosen = selectedCount(selection)
  return (
    <Stack gap="5" data-testid="facet-panel" data-counted-for={JSON.stringify([...(countedFor ?? [])].sort())} aria-busy={stale} opacity={stale ? 0.7 : 1} transition="opacity 0.2s">
      <Flex justify="space-between" align="center" gap="2">
        <Heading size="sm">{t('traits.title')}</Heading>
        {chosen > 0 && (
          <Button size="xs" variant="ghost" colorPalette="brand" onClick={onClear} data-testid="facets-clear">
            {t('traits.clear', { count: chosen })}
          </Button>
        )}
      </Flex>
      {loading && !facets
        ? Array.from({ length: 3 }, (_, i) => <Skeleton key={i} h="24" borderRadius="xl" />)
        : null}
      {facets && facets.length === 0 ? (
        <Text color="fg.muted" fontSize="sm" data-testid="facets-empty">
          {t('traits.none')}
        </Text>
      ) : null}
      {facets?.map((facet) => {
        const open = expanded.has(facet.name)
        const values = shownValues(facet, open)
        return (
          <Stack key={facet.name} gap="1.5" data-testid="facet" data-trait={facet.name}>
            <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wide" lineClamp={2} wordBreak="break-word">
              {facet.name}
            </Text>
            {values.map((v) => (
              <Checkbox.Root
                key={v.value}
                size="sm"
                colorPalette="brand"
                checked={v.selected}
                onCheckedChange={() => onToggle(facet.name, v.value)}
                data-testid="facet-value"
                data-trait={facet.name}
                data-value={v.value}
                data-count={v.count}
                alignItems="flex-start"
                w="full"
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control mt="0.5" />
                <Checkbox.Label flex="1" minW="0" fontWeight="normal" wordBreak="break-word">
                  {v.value}
                </Checkbox.Label>
                <Text as="span" fontSize="sm" color="fg.muted" fontVariantNumeric="tabular-nums" flexShrink={0}>
                  {formatCount(v.count, i18n.resolvedLanguage)}
                </Text>
              </Checkbox.Root>
            ))}
            {!open && facet.distinct > values.length && (
              <Button size="xs" variant="plain" colorPalette="brand" alignSelf="flex-start" px="0" onClick={() => onExpand(facet.name)} data-testid="facet-more">
                {t('traits.showAll', { count: facet.distinct })}
              </Button>
            )}
          </Stack>
        )
      })}
    </Stack>
  )
}

/**
 * The trait facets of an NFT list (`scope`: which list, with its other filters): a column
 * beside the grid on a wide screen, a "Filters" button opening a drawer on a phone. The chosen
 * values live in the URL (`trait=Name:Value`, see useTraitFilter), which the list reads too.
 */
export function TraitFacets({ scope }: { scope: FacetScope | null }) {
  const { t } = useTranslation()
  const { selection, toggle, clear, params } = useTraitFilter()
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set())
  const [open, setOpen] = useState(false)
  const { data, isLoading, stale, countedFor } = useFacets(scope, params, expanded.size > 0 ? ALL_VALUES : TOP_VALUES)
  const chosen = selectedCount(selection)
  const panel = (
    <FacetPanel
      facets={data?.traits}
      loading={isLoading}
      stale={stale}
      countedFor={countedFor}
      selection={selection}
      expanded={expanded}
      onToggle={toggle}
      onExpand={(name) => setExpanded((current) => new Set(current).add(name))}
      onClear={clear}
    />
  )
  return (
    <>
      <Box display={{ base: 'none', lg: 'block' }} w="60" flexShrink={0} position="sticky" top="24" alignSelf="flex-start" maxH="calc(100vh - 8rem)" overflowY="auto" pe="2">
        {panel}
      </Box>
      <Box display={{ base: 'block', lg: 'none' }}>
        <Button variant="outline" borderRadius="full" size="sm" onClick={() => setOpen(true)} data-testid="facets-open">
          <LuSlidersHorizontal />
          {t('traits.filters')}
          {chosen > 0 && (
            <Badge colorPalette="brand" variant="solid" borderRadius="full">
              {chosen}
            </Badge>
          )}
        </Button>
        {/* The drawer's code (a dialog machine) is fetched when a phone first opens it. */}
        {open && (
          <Suspense fallback={null}>
            <FacetsDrawer open={open} onClose={() => setOpen(false)} total={data?.total}>
              {panel}
            </FacetsDrawer>
          </Suspense>
        )}
      </Box>
    </>
  )
}
