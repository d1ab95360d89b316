import { Flex, Input, InputGroup, NativeSelect } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuSearch } from 'react-icons/lu'
import { TEXT_LIMITS } from '@/lib/text-limits'

export type SortBy = 'DATE' | 'POPULARITY' | 'RARITY'
export type OrderBy = 0 | 1
export type SaleType = 'ALL' | 'AUCTION' | 'FIXEDPRICE'

export type ItemFilter = { search: string; sortBy: SortBy; orderBy: OrderBy; saleType: SaleType }
export const DEFAULT_FILTER: ItemFilter = { search: '', sortBy: 'DATE', orderBy: 0, saleType: 'ALL' }

/** The search box applies what was typed after this pause (or at once on Enter). */
export const SEARCH_DEBOUNCE_MS = 400

/**
 * Search box (with the tab's placeholder), sort-by (Date Created, Popularity), order-by (Newest,
 * Oldest) and, for the Created tab, the sale-type filter (ALL, Auction, Fixed Price).
 */
export function ItemFilters({
  value,
  onChange,
  placeholder,
  showSaleType,
  rarity = false,
}: {
  value: ItemFilter
  onChange: (next: ItemFilter) => void
  placeholder: string
  showSaleType: boolean
  /** Offer the rarity order (a collection's list). */
  rarity?: boolean
}) {
  const { t } = useTranslation()
  const [text, setText] = useState(value.search)
  useEffect(() => setText(value.search), [value.search])
  useEffect(() => {
    if (text === value.search) return
    const timer = setTimeout(() => onChange({ ...value, search: text }), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text, value, onChange])
  return (
    <Flex gap="3" direction={{ base: 'column', md: 'row' }} align={{ base: 'stretch', md: 'center' }} mb="6">
      <InputGroup flex="1" startElement={<LuSearch />}>
        <Input
          value={text}
          maxLength={TEXT_LIMITS.search}
          placeholder={placeholder}
          aria-label={placeholder}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') onChange({ ...value, search: text })
          }}
          borderRadius="full"
        />
      </InputGroup>
      <Flex gap="3">
        {showSaleType ? (
          <NativeSelect.Root size="md" w={{ base: 'full', md: '40' }}>
            <NativeSelect.Field aria-label={t('profileTabs.saleType')} value={value.saleType} onChange={(e) => onChange({ ...value, saleType: e.target.value as SaleType })} borderRadius="full">
              <option value="ALL">{t('profileTabs.sale.ALL')}</option>
              <option value="AUCTION">{t('profileTabs.sale.AUCTION')}</option>
              <option value="FIXEDPRICE">{t('profileTabs.sale.FIXEDPRICE')}</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        ) : null}
        <NativeSelect.Root size="md" w={{ base: 'full', md: '44' }}>
          <NativeSelect.Field aria-label={t('profileTabs.sortBy')} value={value.sortBy} onChange={(e) => onChange({ ...value, sortBy: e.target.value as SortBy })} borderRadius="full">
            <option value="DATE">{t('profileTabs.sort.DATE')}</option>
            <option value="POPULARITY">{t('profileTabs.sort.POPULARITY')}</option>
            {rarity && <option value="RARITY">{t('traits.sortRarity')}</option>}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root size="md" w={{ base: 'full', md: '36' }}>
          <NativeSelect.Field aria-label={t('profileTabs.orderBy')} value={String(value.orderBy)} onChange={(e) => onChange({ ...value, orderBy: Number(e.target.value) as OrderBy })} borderRadius="full">
            <option value="0">{value.sortBy === 'RARITY' ? t('traits.order.0') : t('profileTabs.order.0')}</option>
            <option value="1">{value.sortBy === 'RARITY' ? t('traits.order.1') : t('profileTabs.order.1')}</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
    </Flex>
  )
}
