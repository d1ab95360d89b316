import { Text, type TextProps } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { Tooltip } from '@/components/ui/tooltip'
import { exactBalance, shortBalance } from '../balance'

/** The wallet's balance, short ("10K MATIC"); the exact figure on hover, or below it with `exactBelow` (touch screens). */
export function WalletBalance({ wei, exactBelow = false, ...rest }: { wei: bigint; exactBelow?: boolean } & TextProps) {
  const { i18n } = useTranslation()
  const short = `${shortBalance(wei, i18n.language)} MATIC`
  const exact = `${exactBalance(wei, i18n.language)} MATIC`
  if (exactBelow) {
    return (
      <Text as="span" display="inline-flex" flexDirection="column" alignItems="flex-end" data-testid="wallet-balance" {...rest}>
        {short}
        {exact !== short && (
          <Text as="span" fontSize="xs" fontWeight="normal" color="fg.muted" data-testid="wallet-balance-exact">
            {exact}
          </Text>
        )}
      </Text>
    )
  }
  return (
    <Tooltip content={exact} disabled={exact === short}>
      <Text as="span" whiteSpace="nowrap" data-testid="wallet-balance" {...rest}>
        {short}
      </Text>
    </Tooltip>
  )
}
