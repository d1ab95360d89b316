import { localeTag } from '@/lib/format'

/** An axis tick of MATIC: short ("1.2K", "0.05") in the language's digits. */
export function compactMatic(value: number, lng?: string): string {
  return new Intl.NumberFormat(localeTag(lng), { notation: 'compact', maximumFractionDigits: value !== 0 && Math.abs(value) < 1 ? 3 : 1 }).format(value)
}

/** A day on an axis ("Nov 25"), in UTC: the buckets are UTC days. */
export function shortDay(ms: number, lng?: string): string {
  return new Intl.DateTimeFormat(localeTag(lng), { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(ms))
}
