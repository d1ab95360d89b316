import { Text, type TextProps } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { Tooltip } from '@/components/ui/tooltip'
import { displayPrice } from '@/lib/nft/format'

/** A MATIC amount: 3 decimals, shortened past 6 characters with the full value in a tooltip. */
export function Price({ value, ...rest }: { value: string | number | null | undefined } & TextProps) {
  const { t } = useTranslation()
  const { text, full, truncated } = displayPrice(value)
  const currency = t('nft.currency')
  return (
    <Tooltip content={`${full} ${currency}`} disabled={!truncated}>
      <Text as="span" whiteSpace="nowrap" {...rest}>
        {text} {currency}
      </Text>
    </Tooltip>
  )
}
