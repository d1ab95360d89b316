import { formatMaticTick, localeTag } from '@/lib/format'

/** An axis tick of MATIC: 3 decimals as every amount ("0.050"), compact from a thousand ("1.2K"), in the language's digits. */
export const compactMatic = formatMaticTick

/** A day on an axis ("Nov 25"), in UTC: the buckets are UTC days. */
export function shortDay(ms: number, lng?: string): string {
  return new Intl.DateTimeFormat(localeTag(lng), { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(ms))
}
