import i18n from 'i18next'

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
 * An exact decimal: `digits` (no sign, no leading zeros but one) divided by 10^`scale`. Amounts
 * are kept this way from the API's decimal text or from wei, never through a float, so
 * "1.000000000000000001" stays what it is.
 */
type Decimal = { negative: boolean; digits: bigint; scale: number }

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i

/** Reads a decimal number or text ("0.05", "1e-7", 12); anything else is zero. */
export function toDecimal(value: number | string | bigint | null | undefined): Decimal {
  if (typeof value === 'bigint') return { negative: value < 0n, digits: value < 0n ? -value : value, scale: 0 }
  // A number's shortest text is the value it was written as (0.1 is "0.1", not 0.1000000000000000055...).
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '0') : String(value ?? '').trim()
  const match = DECIMAL_TEXT.exec(text)
  if (!match || (!match[2] && !match[3])) return { negative: false, digits: 0n, scale: 0 }
  const [, sign, whole = '', fraction = '', exponent = '0'] = match
  let digits = BigInt(`${whole}${fraction}` || '0')
  let scale = fraction.length - Number(exponent)
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale)
    scale = 0
  }
  return { negative: sign === '-' && digits !== 0n, digits, scale }
}

/** A wei amount (bigint or its digits) as an exact MATIC decimal. */
export function weiToDecimal(wei: bigint | string | null | undefined): Decimal {
  const value = typeof wei === 'bigint' ? wei : /^-?\d+$/.test(String(wei ?? '').trim()) ? BigInt(String(wei).trim()) : 0n
  return { negative: value < 0n, digits: value < 0n ? -value : value, scale: NATIVE_DECIMALS }
}

/**
 * How an amount is rounded to the decimals shown: to the nearest (half away from zero), up (a
 * minimum: never shown below it) or down (what someone receives: never shown above it).
 */
export type Rounding = 'nearest' | 'up' | 'down'

/** `d` rounded to `decimals` decimals. */
function roundDecimal(d: Decimal, decimals: number, rounding: Rounding): Decimal {
  if (d.scale <= decimals) return d
  const divisor = 10n ** BigInt(d.scale - decimals)
  let digits = d.digits / divisor
  const rest = d.digits % divisor
  if (rest !== 0n) {
    // Up means towards +infinity, down towards -infinity (a negative amount never occurs).
    if (rounding === 'up' ? !d.negative : rounding === 'down' ? d.negative : rest * 2n >= divisor) digits += 1n
  }
  return { negative: d.negative && digits !== 0n, digits, scale: decimals }
}

/** The plain text of `d` ("-12.0500"), which Intl formats exactly (no float in between). */
function decimalText(d: Decimal): string {
  const padded = d.digits.toString().padStart(d.scale + 1, '0')
  const whole = padded.slice(0, padded.length - d.scale)
  const fraction = d.scale ? `.${padded.slice(padded.length - d.scale)}` : ''
  return `${d.negative ? '-' : ''}${whole}${fraction}`
}

/** Formats the exact text (Intl.NumberFormat reads a string as an exact decimal). */
function formatDecimal(d: Decimal, lng: string | undefined, options: Intl.NumberFormatOptions): string {
  return numberFormat(lng, options).format(decimalText(d) as `${number}`)
}

/** The number of decimals `d` really has (trailing zeros left out). */
function significantScale(d: Decimal): number {
  let { digits, scale } = d
  while (scale > 0 && digits % 10n === 0n) {
    digits /= 10n
    scale -= 1
  }
  return scale
}

export type AmountOptions = {
  /** `up` for a minimum (a minimum bid is never shown below what the chain asks). */
  rounding?: Rounding
  /** `exact`: every decimal the amount has (at least 3), for tooltips and texts naming an amount. */
  exact?: boolean
}

/**
 * An amount of MATIC (a decimal number or text; see {@link weiToDecimal} for wei) without the
 * coin, as the spec shows amounts: 3 decimals ("0.050"), rounded to the nearest or `up`, with
 * the language's separators and digits ("1,234.500", "1.234,500", "১.৫০০"); `exact` keeps
 * every decimal beyond the third ("1.000000000000000001").
 */
export function formatMaticNumber(value: number | string | bigint | Decimal | null | undefined, lng?: string, options: AmountOptions = {}): string {
  const d = isDecimal(value) ? value : toDecimal(value)
  if (options.exact) {
    const decimals = Math.max(DEFAULT_DISPLAY_DECIMALS, significantScale(d))
    return formatDecimal(d, lng, { minimumFractionDigits: DEFAULT_DISPLAY_DECIMALS, maximumFractionDigits: Math.min(decimals, 100) })
  }
  const rounded = roundDecimal(d, DEFAULT_DISPLAY_DECIMALS, options.rounding ?? 'nearest')
  return formatDecimal(rounded, lng, { minimumFractionDigits: DEFAULT_DISPLAY_DECIMALS, maximumFractionDigits: DEFAULT_DISPLAY_DECIMALS })
}

function isDecimal(value: unknown): value is Decimal {
  return typeof value === 'object' && value !== null && 'digits' in value && 'scale' in value
}

/** The same with the coin: "1.500 MATIC", "1,500 MATIC" (a no-break space between). */
export function formatMatic(value: number | string | bigint | Decimal | null | undefined, lng?: string, options: AmountOptions = {}): string {
  return `${formatMaticNumber(value, lng, options)}\u00a0${CURRENCY}`
}

/** A wei amount (bigint or its digits) as {@link formatMatic} writes it. */
export function formatWeiMatic(wei: bigint | string | null | undefined, lng?: string, options: AmountOptions = {}): string {
  return formatMatic(weiToDecimal(wei), lng, options)
}

/**
 * An amount of MATIC as cards show it, without the coin: 3 decimals and at most 6 characters
 * (fewer decimals, then the compact form: "12.3K", "12,3 k"; a dust amount is "<0.001").
 * `full` is the exact amount, for the tooltip; `truncated` says the two differ.
 */
export function displayMatic(value: number | string | bigint | Decimal | null | undefined, lng?: string): { text: string; full: string; truncated: boolean } {
  const d = isDecimal(value) ? value : toDecimal(value)
  const full = formatMaticNumber(d, lng, { exact: true })
  const shown = roundDecimal(d, DEFAULT_DISPLAY_DECIMALS, 'nearest')
  let text: string
  if (d.digits !== 0n && shown.digits === 0n) {
    text = `<${formatMaticNumber({ negative: false, digits: 1n, scale: DEFAULT_DISPLAY_DECIMALS }, lng)}`
  } else {
    const texts = [3, 2, 1, 0].map((decimals) =>
      formatDecimal(roundDecimal(d, decimals, 'nearest'), lng, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
    )
    texts.push(...[1, 0].map((digits) => formatDecimal(d, lng, { notation: 'compact', maximumFractionDigits: digits })))
    text = texts.find((t) => t.length <= MAX_AMOUNT_CHARS) ?? texts[texts.length - 1]
  }
  return { text, full, truncated: text !== full }
}

/**
 * An axis tick of MATIC (a chart's own round numbers): short ("1.2K", "0.05" as "0.050") in the
 * language's digits; 3 decimals below 1000, as amounts show, then the compact form.
 */
export function formatMaticTick(value: number, lng?: string): string {
  if (Math.abs(value) >= 1000) return numberFormat(lng, { notation: 'compact', maximumFractionDigits: 1 }).format(value)
  return formatMaticNumber(value, lng)
}

/** A wei amount (bigint) as MATIC with 3 decimals, in plain digits (the input of the above). */
export function formatWei(value: bigint | null | undefined, decimals = DEFAULT_DISPLAY_DECIMALS): string {
  return decimalText(roundDecimal(weiToDecimal(value ?? 0n), decimals, 'nearest'))
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

/** `text` with its spaces made non-breaking: a date that wraps as one piece ("Dec 28, 2026" never splits after "Dec"). */
export function unbreakable(text: string): string {
  return text.replace(/ /g, '\u00a0')
}
