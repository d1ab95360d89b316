import { Text, type TextProps } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { displayMatic } from '@/lib/format'
import { Tooltip } from './ui/tooltip'

/** An amount in the language's digits; past 6 characters it is shortened with the full value in a tooltip. */
export function Amount({ value, suffix, ...rest }: { value: number | string | null | undefined; suffix?: string } & TextProps) {
  const { i18n } = useTranslation()
  const { text, full, truncated } = displayMatic(value, i18n.resolvedLanguage)
  const unit = suffix ? `\u00a0${suffix}` : ''
  return (
    <Tooltip content={`${full}${unit}`} disabled={!truncated}>
      <Text as="span" {...rest}>
        {text}
        {unit}
      </Text>
    </Tooltip>
  )
}
