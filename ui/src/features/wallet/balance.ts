import { formatEther } from 'viem'
import { localeTag } from '@/lib/format'

/** Below this a non-zero balance reads "< 0.01": more digits would not fit the top bar. */
const SMALLEST_SHOWN = 0.01
/** From here on the balance is compact: 10K, 1.2M. */
const COMPACT_FROM = 1000

/**
 * A wallet balance (wei) short enough for the top bar, in the reader's locale: compact from
 * 1 000 on ("10K", "1.2M"), two decimals at most below ("9.88"), "< 0.01" for dust.
 */
export function shortBalance(wei: bigint, language: string): string {
  const locale = localeTag(language)
  const value = Number(formatEther(wei))
  if (value > 0 && value < SMALLEST_SHOWN) return `< ${new Intl.NumberFormat(locale).format(SMALLEST_SHOWN)}`
  if (value >= COMPACT_FROM) return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(value)
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value)
}

/** The exact balance, every decimal kept (formatted from the decimal text, not a float), in the reader's locale. */
export function exactBalance(wei: bigint, language: string): string {
  const decimal = formatEther(wei) as `${number}`
  return new Intl.NumberFormat(localeTag(language), { maximumFractionDigits: 18 }).format(decimal)
}
