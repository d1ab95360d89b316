import { describe, expect, it } from 'vitest'
import {
  unbreakable,
  LOCALE_TAGS,
  displayMatic,
  formatAmount,
  formatCount,
  formatCountdown,
  formatDate,
  formatDateTime,
  formatMatic,
  formatMaticNumber,
  formatMaticTick,
  formatWeiMatic,
  formatRelative,
  formatWei,
  localeTag,
  shortenAddress,
  truncate,
} from './format'
import { SUPPORTED_LANGUAGES } from './i18n'

/** No-break and narrow no-break spaces (French groups, "MATIC"'s space) read as spaces here. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

const NOW = Date.parse('2026-11-25T15:04:05Z')
const remaining = (days: number, hours: number, minutes: number, seconds: number) => ({ days, hours, minutes, seconds, done: false })

/** What each of the seven languages writes. */
const EXPECTED: Record<string, Record<string, string>> = {
  en: {
    thousand: '1,000.000 MATIC',
    half: '1.500 MATIC',
    card: '1,235',
    big: '123.5M',
    count: '12,345',
    dateTime: 'Nov 25, 2026, 3:04 PM',
    date: 'Nov 25, 2026',
    hours: '3 hours ago',
    yesterday: 'yesterday',
    now: 'now',
    days: '2 days 4 hr',
    hoursLeft: '23 hr 12 min',
    lastMinute: '42 sec',
  },
  pt: {
    thousand: '1.000,000 MATIC',
    half: '1,500 MATIC',
    card: '1.235',
    big: '123 mi',
    count: '12.345',
    dateTime: '25 de nov. de 2026, 15:04',
    date: '25 de nov. de 2026',
    hours: 'há 3 horas',
    yesterday: 'ontem',
    now: 'agora',
    days: '2 dias 4 h',
    hoursLeft: '23 h 12 min',
    lastMinute: '42 s',
  },
  fr: {
    thousand: '1 000,000 MATIC',
    half: '1,500 MATIC',
    card: '1 235',
    big: '123 M',
    count: '12 345',
    dateTime: '25 nov. 2026, 15:04',
    date: '25 nov. 2026',
    hours: 'il y a 3 heures',
    yesterday: 'hier',
    now: 'maintenant',
    days: '2 j 4 h',
    hoursLeft: '23 h 12 min',
    lastMinute: '42 s',
  },
  ge: {
    thousand: '1.000,000 MATIC',
    half: '1,500 MATIC',
    card: '1.235',
    big: '123 Mio.',
    count: '12.345',
    dateTime: '25.11.2026, 15:04',
    date: '25.11.2026',
    hours: 'vor 3 Stunden',
    yesterday: 'gestern',
    now: 'jetzt',
    days: '2 Tg. 4 Std.',
    hoursLeft: '23 Std. 12 Min.',
    lastMinute: '42 Sek.',
  },
  bn: {
    thousand: '১,০০০.০০০ MATIC',
    half: '১.৫০০ MATIC',
    card: '১,২৩৫',
    big: '১২ কো',
    count: '১২,৩৪৫',
    dateTime: '২৫ নভেঃ, ২০২৬, ৩:০৪ PM',
    date: '২৫ নভেঃ, ২০২৬',
    hours: '৩ ঘণ্টা আগে',
    yesterday: 'গতকাল',
    now: 'এখন',
    days: '২ দিন ৪ ঘণ্টা',
    hoursLeft: '২৩ ঘণ্টা ১২ মিনিট',
    lastMinute: '৪২ সেকেন্ড',
  },
  hi: {
    thousand: '1,000.000 MATIC',
    half: '1.500 MATIC',
    card: '1,235',
    big: '12 क॰',
    count: '12,345',
    dateTime: '25 नव॰ 2026, 3:04 pm',
    date: '25 नव॰ 2026',
    hours: '3 घंटे पहले',
    yesterday: 'कल',
    now: 'अब',
    days: '2 दिन 4 घं॰',
    hoursLeft: '23 घं॰ 12 मि॰',
    lastMinute: '42 से॰',
  },
  ta: {
    thousand: '1,000.000 MATIC',
    half: '1.500 MATIC',
    card: '1,235',
    big: '123மி',
    count: '12,345',
    dateTime: '25 நவ., 2026, 3:04 PM',
    date: '25 நவ., 2026',
    hours: '3 மணிநேரம் முன்',
    yesterday: 'நேற்று',
    now: 'இப்போது',
    days: '2 நாட்கள் 4 ம.',
    hoursLeft: '23 ம. 12 நிமி.',
    lastMinute: '42 விநாடி',
  },
}

describe('locale tags', () => {
  it('map each of the seven languages to a BCP 47 tag (ge is German)', () => {
    expect(Object.keys(LOCALE_TAGS).sort()).toEqual([...SUPPORTED_LANGUAGES].sort())
    expect(localeTag('ge')).toBe('de-DE')
    expect(localeTag('xx')).toBe('en-US')
  })
})

describe.each(SUPPORTED_LANGUAGES)('in %s', (lng) => {
  const expected = EXPECTED[lng]

  it('writes amounts with the language’s separators and MATIC after them', () => {
    expect(plain(formatMatic('1000', lng))).toBe(expected.thousand)
    expect(plain(formatMatic(1.5, lng))).toBe(expected.half)
    expect(formatMatic('1.5', lng)).toContain('\u00a0MATIC')
  })

  it('shortens card amounts to 6 characters with the full amount for the tooltip', () => {
    const card = displayMatic('1234.5678', lng)
    expect(plain(card.text)).toBe(expected.card)
    expect(card.truncated).toBe(true)
    expect(plain(card.full)).toBe(plain(formatMatic('1234.5678', lng, { exact: true })).replace(' MATIC', ''))
    expect(plain(displayMatic('123456789', lng).text)).toBe(expected.big)
    expect(displayMatic('1.5', lng)).toEqual({ text: displayMatic('1.5', lng).full, full: displayMatic('1.5', lng).full, truncated: false })
  })

  it('writes counts with the language’s grouping', () => {
    expect(plain(formatCount(12345, lng))).toBe(expected.count)
  })

  it('writes dates and times without seconds', () => {
    expect(plain(formatDateTime('2026-11-25T15:04:05Z', lng, 'UTC'))).toBe(expected.dateTime)
    expect(plain(formatDate('2026-11-25T15:04:05Z', lng, 'UTC'))).toBe(expected.date)
  })

  it('says how long ago', () => {
    expect(plain(formatRelative(NOW - 3 * 3600_000, NOW, lng))).toBe(expected.hours)
    expect(plain(formatRelative(NOW - 86400_000, NOW, lng))).toBe(expected.yesterday)
    expect(plain(formatRelative(NOW - 20_000, NOW, lng))).toBe(expected.now)
  })

  it('rounds an expiry to the nearest unit: 7 days less a few seconds reads 7 days', () => {
    const days = (n: number) => plain(new Intl.RelativeTimeFormat(localeTag(lng), { numeric: 'auto' }).format(n, 'day'))
    expect(plain(formatRelative(NOW + 7 * 86400_000 - 5_000, NOW, lng))).toBe(days(7))
    expect(plain(formatRelative(NOW + 7 * 86400_000, NOW, lng))).toBe(days(7))
    expect(plain(formatRelative(NOW + 30 * 86400_000 - 5_000, NOW, lng))).toBe(days(30))
    expect(plain(formatRelative(NOW + 3 * 86400_000 - 5_000, NOW, lng))).toBe(days(3))
  })

  it('counts down in its two largest units, seconds only in the last minute', () => {
    expect(plain(formatCountdown(remaining(2, 4, 3, 1), lng))).toBe(expected.days)
    expect(plain(formatCountdown(remaining(0, 23, 12, 59), lng))).toBe(expected.hoursLeft)
    expect(plain(formatCountdown(remaining(0, 0, 0, 42), lng))).toBe(expected.lastMinute)
  })
})

describe('relative times', () => {
  const at = (seconds: number) => formatRelative(NOW + seconds * 1000, NOW, 'en')
  it('rounds to the nearest whole unit, ahead and ago', () => {
    expect(at(7 * 86400 - 5)).toBe('in 7 days')
    expect(at(6 * 86400 + 13 * 3600)).toBe('in 7 days')
    expect(at(6 * 86400 + 11 * 3600)).toBe('in 6 days')
    expect(at(2 * 86400 - 60)).toBe('in 2 days')
    expect(at(-(3 * 3600 + 40 * 60))).toBe('4 hours ago')
    expect(at(-(3 * 3600 + 20 * 60))).toBe('3 hours ago')
    expect(at(90 * 60)).toBe('in 2 hours')
    expect(at(-30)).toBe('now')
  })

  it('counts days up to two months, then months, years from one', () => {
    expect(at(14 * 86400)).toBe('in 14 days')
    expect(at(-20 * 86400)).toBe('20 days ago')
    expect(at(30 * 86400 - 5)).toBe('in 30 days')
    expect(at(59 * 86400)).toBe('in 59 days')
    expect(at(-80 * 86400)).toBe('3 months ago')
    expect(at(-400 * 86400)).toBe('last year')
  })
})

describe('amounts', () => {
  it('show the spec’s 3 decimals, rounded to the nearest', () => {
    expect(formatMatic('0.05', 'en')).toBe('0.050\u00a0MATIC')
    expect(formatMatic(2, 'en')).toBe('2.000\u00a0MATIC')
    expect(formatMaticNumber('0.28245', 'en')).toBe('0.282')
    expect(formatMaticNumber('0.2825', 'en')).toBe('0.283')
    expect(formatMaticNumber('0.0004', 'en')).toBe('0.000')
  })
  it('round a minimum up: never shown below what it is', () => {
    expect(formatMaticNumber('0.28245', 'en', { rounding: 'up' })).toBe('0.283')
    expect(formatMaticNumber('0.297150000000000001', 'en', { rounding: 'up' })).toBe('0.298')
    expect(formatMaticNumber('0.297', 'en', { rounding: 'up' })).toBe('0.297')
    expect(formatWeiMatic(282450000000000000n, 'fr', { rounding: 'up' })).toBe('0,283\u00a0MATIC')
    expect(formatWeiMatic(1n, 'en', { rounding: 'up' })).toBe('0.001\u00a0MATIC')
  })
  it('round what someone receives down: never shown above what it is', () => {
    expect(formatWeiMatic(262500000000000000n, 'en', { rounding: 'down' })).toBe('0.262\u00a0MATIC')
    expect(formatMaticNumber('0.2999999', 'en', { rounding: 'down' })).toBe('0.299')
    expect(formatMaticNumber('0.3', 'en', { rounding: 'down' })).toBe('0.300')
  })
  it('are exact: from wei or the decimal text, never through a float', () => {
    expect(formatWeiMatic(1_000_000_000_000_000_001n, 'en', { exact: true })).toBe('1.000000000000000001\u00a0MATIC')
    expect(formatMaticNumber('1.000000000000000001', 'ge', { exact: true })).toBe('1,000000000000000001')
    expect(formatWeiMatic('297150000000000000', 'en', { exact: true })).toBe('0.29715\u00a0MATIC')
    expect(formatMaticNumber('0.1', 'en', { exact: true })).toBe('0.100')
    expect(displayMatic('1.000000000000000001', 'en')).toEqual({ text: '1.000', full: '1.000000000000000001', truncated: true })
  })
  it('keep huge and tiny values whole', () => {
    expect(formatMaticNumber('123456789012345678901234.5', 'en')).toBe('123,456,789,012,345,678,901,234.500')
    expect(plain(formatMaticNumber('12345678.9', 'fr'))).toBe('12 345 678,900')
    expect(formatMaticNumber('12345678.9', 'hi')).toBe('1,23,45,678.900')
    expect(formatWeiMatic(10n ** 40n, 'en')).toBe('10,000,000,000,000,000,000,000.000\u00a0MATIC')
    expect(formatMaticNumber('1e-18', 'en', { exact: true })).toBe('0.000000000000000001')
    expect(formatMaticNumber(1e-7, 'en', { exact: true })).toBe('0.0000001')
    expect(formatMaticNumber(1e21, 'en')).toBe('1,000,000,000,000,000,000,000.000')
  })
  it('use each language’s separators and digits', () => {
    const min = '0.29715'
    expect(formatMaticNumber(min, 'en', { rounding: 'up' })).toBe('0.298')
    expect(formatMaticNumber(min, 'pt', { rounding: 'up' })).toBe('0,298')
    expect(formatMaticNumber(min, 'ge', { rounding: 'up' })).toBe('0,298')
    expect(formatMaticNumber(min, 'bn', { rounding: 'up' })).toBe('০.২৯৮')
    expect(plain(formatMaticNumber('1234.5', 'fr'))).toBe('1 234,500')
  })
  it('shows dust as less than the smallest shown amount', () => {
    expect(displayMatic('0.0001', 'en')).toEqual({ text: '<0.001', full: '0.0001', truncated: true })
    expect(displayMatic('0', 'en')).toEqual({ text: '0.000', full: '0.000', truncated: false })
  })
  it('keeps every decimal for the tooltip', () => {
    expect(displayMatic('1.23456', 'en')).toEqual({ text: '1.235', full: '1.23456', truncated: true })
    expect(displayMatic('123.5', 'en')).toEqual({ text: '123.50', full: '123.500', truncated: true })
  })
  it('gives chart ticks 3 decimals, compact from a thousand', () => {
    expect(formatMaticTick(0.1, 'en')).toBe('0.100')
    expect(formatMaticTick(0.4, 'ge')).toBe('0,400')
    expect(formatMaticTick(1500, 'en')).toBe('1.5K')
  })
  it('falls back to zero for missing or bad values', () => {
    expect(formatMatic(undefined, 'en')).toBe('0.000\u00a0MATIC')
    expect(displayMatic('abc', 'en').text).toBe('0.000')
    expect(formatWeiMatic('1.5', 'en')).toBe('0.000\u00a0MATIC')
  })
  it('gives plain digits for values (the wallet balance)', () => {
    expect(formatAmount('2')).toBe('2.000')
    expect(formatWei(1_500_000_000_000_000_000n)).toBe('1.500')
    expect(formatWei(1_999_600_000_000_000_000n)).toBe('2.000')
  })
})

describe('countdown', () => {
  it('leaves out a zero second unit', () => {
    expect(formatCountdown(remaining(3, 0, 5, 0), 'en')).toBe('3 days')
    expect(plain(formatCountdown(remaining(0, 0, 12, 30), 'en'))).toBe('12 min')
  })
})

describe('shortenAddress', () => {
  it('keeps the first 6 and last 4 characters', () => {
    expect(shortenAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf39F...2266')
  })
  it('returns an empty string without an address', () => {
    expect(shortenAddress(undefined)).toBe('')
  })
})

describe('truncate', () => {
  it('cuts long text and adds an ellipsis', () => {
    expect(truncate('A very long NFT title', 15)).toBe('A very long NFT...')
    expect(truncate('short', 15)).toBe('short')
  })
})

describe('unbreakable', () => {
  it('makes every space non-breaking and leaves the rest as it is', () => {
    expect(unbreakable('Dec 28, 2026, 6:38 AM')).toBe('Dec\u00a028,\u00a02026,\u00a06:38\u00a0AM')
    expect(unbreakable('28/12/2026')).toBe('28/12/2026')
  })
})
