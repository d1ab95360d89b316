import i18n from 'i18next'
import { formatUnits } from 'viem'

/** MATIC has 18 decimals; amounts are shown with 3 decimals by default. */
export const NATIVE_DECIMALS = 18
export const DEFAULT_DISPLAY_DECIMALS = 3
/** Longer amounts are shortened on cards (the full value in a tooltip). */
export const MAX_AMOUNT_CHARS = 6
/** The coin, written one way in every language, after the amount. */
export const CURRENCY = 'MATIC'

/**
 * The BCP 47 tag of each language of `ui/public/locales` (the product calls German `ge`;
 * Portuguese is written as in Brazil: "você").
 */
export const LOCALE_TAGS: Record<string, string> = {
  en: 'en-US',
  pt: 'pt-BR',
  fr: 'fr-FR',
  ge: 'de-DE',
  bn: 'bn-IN',
  hi: 'hi-IN',
  ta: 'ta-IN',
}

/** The BCP 47 tag of `lng` (by default the language i18next shows), English when unknown. */
export function localeTag(lng: string | undefined = i18n.resolvedLanguage ?? i18n.language): string {
  return (lng && LOCALE_TAGS[lng]) || LOCALE_TAGS.en
}

// Formatters are costly to make and used by every card: one per locale and options.
const numberFormats = new Map<string, Intl.NumberFormat>()
function numberFormat(lng: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const tag = localeTag(lng)
  const key = `${tag} ${JSON.stringify(options)}`
  let format = numberFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(tag, options)
    numberFormats.set(key, format)
  }
  return format
}

function toNumber(value: number | string | bigint | null | undefined): number {
  const n = typeof value === 'number' ? value : Number(value ?? 0)
  return Number.isFinite(n) ? n : 0
}

/** A count (likes, items, totals) as the language writes it: 1,234 / 1.234 / 1 234. */
export function formatCount(value: number | null | undefined, lng?: string): string {
  return numberFormat(lng, { maximumFractionDigits: 0 }).format(toNumber(value))
}

/**
 * An amount of MATIC (a decimal number or string) without the coin: every decimal it has (up
 * to 18), no trailing zeros, the language's separators ("1.5", "1,5", "1.234,5").
 */
export function formatMaticNumber(value: number | string | null | undefined, lng?: string): string {
  return numberFormat(lng, { maximumFractionDigits: NATIVE_DECIMALS }).format(toNumber(value))
}

/** The same with the coin: "1.5 MATIC", "1,5 MATIC" (a no-break space between). */
export function formatMatic(value: number | string | null | undefined, lng?: string): string {
  return `${formatMaticNumber(value, lng)}\u00a0${CURRENCY}`
}

/**
 * An amount of MATIC as cards show it, without the coin: at most 3 decimals and 6 characters
 * (fewer decimals, then the compact form: "12.3K", "12,3 k"; a dust amount is "<0.001").
 * `full` is every decimal, for the tooltip; `truncated` says the two differ.
 */
export function displayMatic(value: number | string | null | undefined, lng?: string): { text: string; full: string; truncated: boolean } {
  const n = toNumber(value)
  const full = formatMaticNumber(n, lng)
  const smallest = 10 ** -DEFAULT_DISPLAY_DECIMALS
  let text: string
  if (n > 0 && n < smallest) {
    text = `<${numberFormat(lng, { maximumFractionDigits: DEFAULT_DISPLAY_DECIMALS }).format(smallest)}`
  } else {
    const candidates: Intl.NumberFormatOptions[] = [
      ...[3, 2, 1, 0].map((digits) => ({ maximumFractionDigits: digits })),
      { notation: 'compact', maximumFractionDigits: 1 },
      { notation: 'compact', maximumFractionDigits: 0 },
    ]
    const texts = candidates.map((options) => numberFormat(lng, options).format(n))
    text = texts.find((t) => t.length <= MAX_AMOUNT_CHARS) ?? texts[texts.length - 1]
  }
  return { text, full, truncated: text !== full }
}

/** A wei amount (bigint) as MATIC with 3 decimals, in plain digits (the input of the above). */
export function formatWei(value: bigint | null | undefined, decimals = DEFAULT_DISPLAY_DECIMALS): string {
  return formatAmount(Number(formatUnits(value ?? 0n, NATIVE_DECIMALS)), decimals)
}

/** A number with a fixed number of decimals in plain digits ("1.500"): for values, not for display. */
export function formatAmount(value: number | string | null | undefined, decimals = DEFAULT_DISPLAY_DECIMALS): string {
  return toNumber(value).toFixed(decimals)
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()
function dateFormat(lng: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const tag = localeTag(lng)
  const key = `${tag} ${JSON.stringify(options)}`
  let format = dateFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(tag, options)
    dateFormats.set(key, format)
  }
  return format
}

/** A date and time as the language writes them, without seconds ("Nov 25, 2026, 3:04 PM"). */
export function formatDateTime(date: string | number | Date, lng?: string, timeZone?: string): string {
  const at = new Date(date)
  if (Number.isNaN(at.getTime())) return ''
  return dateFormat(lng, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at)
}

/** A date as the language writes it ("Nov 25, 2026"). */
export function formatDate(date: string | number | Date, lng?: string, timeZone?: string): string {
  const at = new Date(date)
  if (Number.isNaN(at.getTime())) return ''
  return dateFormat(lng, { dateStyle: 'medium', timeZone }).format(at)
}

/**
 * The units of relative times, largest first, each with the span from which it is used. No
 * weeks, and months from two of them, so an offer's expiry reads as it was chosen: "in 7 days",
 * "in 30 days" (not "next week", "in 4 weeks").
 */
const UNITS: [Intl.RelativeTimeFormatUnit, number, number][] = [
  ['year', 365 * 86400, 365 * 86400],
  ['month', 30 * 86400, 60 * 86400],
  ['day', 86400, 86400],
  ['hour', 3600, 3600],
  ['minute', 60, 60],
]

/**
 * How long ago (or how far ahead) `date` is from `now`, in the largest unit it spans, rounded to
 * the nearest whole one, as the language says it: "3 hours ago", "vor 3 Stunden", "yesterday",
 * "in 7 days" for 7 days less a few seconds; "now" under a minute.
 */
export function formatRelative(date: string | number | Date, now = Date.now(), lng?: string): string {
  const seconds = (new Date(date).getTime() - now) / 1000
  if (!Number.isFinite(seconds)) return ''
  const format = new Intl.RelativeTimeFormat(localeTag(lng), { numeric: 'auto' })
  for (const [unit, size, from] of UNITS) {
    // + 0 turns the -0 of a rounded past into 0.
    if (Math.abs(seconds) >= from) return format.format(Math.round(seconds / size) + 0, unit)
  }
  return format.format(0, 'second')
}

/** Time left, as a countdown holds it. */
export type Remaining = { days: number; hours: number; minutes: number; seconds: number; done: boolean }

/**
 * A countdown in its two largest units, as the language abbreviates them: "2 days 4 hr",
 * "23 hr 12 min", "5 min"; seconds only in the last minute ("42 sec").
 */
export function formatCountdown(r: Remaining, lng?: string): string {
  const unit = (value: number, name: string) => numberFormat(lng, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value)
  if (r.days > 0) return r.hours > 0 ? `${unit(r.days, 'day')} ${unit(r.hours, 'hour')}` : unit(r.days, 'day')
  if (r.hours > 0) return r.minutes > 0 ? `${unit(r.hours, 'hour')} ${unit(r.minutes, 'minute')}` : unit(r.hours, 'hour')
  if (r.minutes > 0) return unit(r.minutes, 'minute')
  return unit(r.seconds, 'second')
}

/** Addresses are shortened to their first 6 and last 4 characters. */
export function shortenAddress(address: string | null | undefined): string {
  if (!address) return ''
  if (address.length <= 10) return address
  return `${address.slice(0, 6)}...${address.slice(-4)}`
}

/** Cuts a text at `max` characters and adds an ellipsis when it was longer. */
export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? ''
  return value.length > max ? `${value.slice(0, max)}...` : value
}
