import { Text, type TextProps } from '@chakra-ui/react'
import { formatAmount, shortAmount } from '@/lib/format'
import { Tooltip } from './ui/tooltip'

/** An amount with 3 decimals; longer than 6 characters it is shortened with the full value in a tooltip. */
export function Amount({ value, suffix, ...rest }: { value: number | string | null | undefined; suffix?: string } & TextProps) {
  const full = formatAmount(value)
  const { text, truncated } = shortAmount(full)
  return (
    <Tooltip content={`${full}${suffix ? ` ${suffix}` : ''}`} disabled={!truncated}>
      <Text as="span" {...rest}>
        {text}
        {suffix ? ` ${suffix}` : ''}
      </Text>
    </Tooltip>
  )
}
