import { Flex, HStack, Input, RadioGroup, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { FormField } from '@/components/ui/form-field'
import { type FormOfSale, MAX_AUCTION_HOURS, AUCTION_END_GRACE_MS, type SaleErrors, type SaleValues, toLocalDateTime } from '../validation'

/**
 * The sale part of create asset (step 1) and of the update page: the sale type, then the fixed
 * price, or the auction's base price, buy-now price and end. Errors are translation keys.
 */
export function SaleFields({
  values,
  errors,
  onChange,
  forms,
  now,
  children,
}: {
  values: SaleValues
  errors: SaleErrors
  onChange: (field: keyof SaleValues, value: string) => void
  /** The sale types offered, in order. */
  forms: FormOfSale[]
  /** Bounds of the date-time input. */
  now: Date
  /** More fields under the prices (the royalty button on create). */
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const error = (field: keyof SaleErrors) => (errors[field] ? t(errors[field]) : null)
  const price = (field: 'price' | 'basePrice' | 'buyPrice', label: string) => (
    <FormField label={label} error={error(field)}>
      <Input
        type="number"
        inputMode="decimal"
        step="any"
        min="0"
        placeholder="0.01"
        value={values[field]}
        onChange={(e) => onChange(field, e.target.value)}
        data-testid={`sale-${field}`}
      />
    </FormField>
  )

  return (
    <Stack gap="5">
      <Stack gap="2">
        <Text fontWeight="medium" fontSize="sm" id="sale-type-label">
          {t('createAsset.saleType')}
        </Text>
        <RadioGroup.Root
          value={values.formOfSale}
          onValueChange={(e) => e.value && onChange('formOfSale', e.value)}
          aria-labelledby="sale-type-label"
          colorPalette="brand"
        >
          <HStack gap={{ base: '3', md: '6' }} wrap="wrap">
            {forms.map((form) => (
              <RadioGroup.Item key={form} value={form} data-testid={`sale-form-${form}`}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{t(`createAsset.forms.${form}`)}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </HStack>
        </RadioGroup.Root>
      </Stack>

      {values.formOfSale === 'FIXEDPRICE' && price('price', t('createAsset.price'))}
      {values.formOfSale === 'AUCTION' && (
        <>
          <Flex gap="4" direction={{ base: 'column', md: 'row' }}>
            {price('basePrice', t('createAsset.basePrice'))}
            {price('buyPrice', t('createAsset.buyPrice'))}
          </Flex>
          <FormField label={t('createAsset.auctionEnd')} error={error('auctionEnd')} helper={t('createAsset.auctionEndHint')}>
            <Input
              type="datetime-local"
              value={values.auctionEnd}
              min={toLocalDateTime(new Date(now.getTime() - AUCTION_END_GRACE_MS))}
              max={toLocalDateTime(new Date(now.getTime() + MAX_AUCTION_HOURS * 3_600_000))}
              onChange={(e) => onChange('auctionEnd', e.target.value)}
              data-testid="sale-auctionEnd"
            />
          </FormField>
        </>
      )}
      {children}
    </Stack>
  )
}
