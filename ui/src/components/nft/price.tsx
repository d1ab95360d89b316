import { Text, type TextProps } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { Tooltip } from '@/components/ui/tooltip'
import { CURRENCY, displayMatic } from '@/lib/format'

/** A MATIC amount in the language's digits, shortened past 6 characters with the full value in a tooltip. */
export function Price({ value, ...rest }: { value: string | number | null | undefined } & TextProps) {
  const { i18n } = useTranslation()
  const { text, full, truncated } = displayMatic(value, i18n.resolvedLanguage)
  return (
    <Tooltip content={`${full}\u00a0${CURRENCY}`} disabled={!truncated}>
      <Text as="span" whiteSpace="nowrap" {...rest}>
        {text}
        {`\u00a0${CURRENCY}`}
      </Text>
    </Tooltip>
  )
}
