import { Text, type TextProps } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { Tooltip } from '@/components/ui/tooltip'
import { exactBalance, shortBalance } from '../balance'

function useBalanceTexts(wei: bigint) {
  const { i18n } = useTranslation()
  return { short: `${shortBalance(wei, i18n.language)} MATIC`, exact: `${exactBalance(wei, i18n.language)} MATIC` }
}

/** The wallet's balance, short ("10K MATIC"), with the exact figure on hover. */
export function WalletBalance({ wei, ...rest }: { wei: bigint } & TextProps) {
  const { short, exact } = useBalanceTexts(wei)
  return (
    <Tooltip content={exact} disabled={exact === short}>
      <Text as="span" whiteSpace="nowrap" data-testid="wallet-balance" {...rest}>
        {short}
      </Text>
    </Tooltip>
  )
}

/** The exact balance, every decimal, for where there is no hover (a menu, the drawer); nothing when the short one is exact. */
export function ExactBalance({ wei, ...rest }: { wei: bigint } & TextProps) {
  const { short, exact } = useBalanceTexts(wei)
  if (exact === short) return null
  return (
    <Text fontSize="xs" color="fg.muted" fontFamily="mono" wordBreak="break-all" data-testid="wallet-balance-exact" {...rest}>
      {exact}
    </Text>
  )
}
