import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_LANGUAGES } from './i18n'

const localesDir = join(__dirname, '..', '..', 'public', 'locales')
const srcDir = join(__dirname, '..')

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }
const load = (lng: string): Json => JSON.parse(readFileSync(join(localesDir, lng, 'translation.json'), 'utf8'))

/** Every leaf path of a translation tree (array items included), e.g. 'faq.items.0.question'. */
function leaves(node: Json, prefix = ''): string[] {
  if (node !== null && typeof node === 'object') {
    return Object.entries(node).flatMap(([key, value]) => leaves(value as Json, prefix ? `${prefix}.${key}` : key))
  }
  return [prefix]
}

function lookup(node: Json, path: string): Json | undefined {
  return path.split('.').reduce<Json | undefined>((acc, part) => (acc && typeof acc === 'object' ? (acc as Record<string, Json>)[part] : undefined), node)
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

const en = load('en')
const enLeaves = leaves(en)

describe('translation files', () => {
  it('has a file for each of the seven languages', () => {
    expect(SUPPORTED_LANGUAGES).toEqual(['en', 'pt', 'fr', 'ge', 'bn', 'hi', 'ta'])
    expect(readdirSync(localesDir).sort()).toEqual([...SUPPORTED_LANGUAGES].sort())
  })

  it.each(SUPPORTED_LANGUAGES.filter((l) => l !== 'en'))('%s has every key of en, non-empty, and no extra key', (lng) => {
    const file = load(lng)
    const missing = enLeaves.filter((path) => {
      const value = lookup(file, path)
      return typeof value !== 'string' || value.trim() === ''
    })
    expect(missing).toEqual([])
    expect(leaves(file).filter((path) => lookup(en, path) === undefined)).toEqual([])
  })

  it.each(SUPPORTED_LANGUAGES.filter((l) => l !== 'en'))('%s keeps the interpolation variables of en', (lng) => {
    const file = load(lng)
    const vars = (s: string) => (s.match(/{{\s*\w+\s*}}/g) ?? []).sort().join(',')
    const wrong = enLeaves.filter((path) => vars(String(lookup(en, path))) !== vars(String(lookup(file, path))))
    expect(wrong).toEqual([])
  })

  it('en has every key the code asks for with a literal t()', () => {
    const used = new Set<string>()
    for (const file of sourceFiles(srcDir)) {
      const text = readFileSync(file, 'utf8')
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) used.add(m[1])
      for (const m of text.matchAll(/(?:labelKey|messageKey)[:=]\s*["']([a-zA-Z0-9_.]+)["']/g)) used.add(m[1])
      for (const m of text.matchAll(/'((?:validation|time)\.[a-zA-Z]+)'/g)) used.add(m[1])
    }
    // A key used with a count may exist only in its plural forms (`likes_one`, `likes_other`).
    const missing = [...used].filter((key) => lookup(en, key) === undefined && lookup(en, `${key}_other`) === undefined)
    expect(used.size).toBeGreaterThan(100)
    expect(missing).toEqual([])
  })

  // An auction's bids and the offers anyone makes on an NFT are two things: each language gives
  // them two words (French: enchères and offres), so "My bids" and "My offers" never read alike.
  const BID_AND_OFFER_WORDS: [bid: string, offer: string][] = [
    ['myBids.title', 'offers.myOffers'],
    ['nav.allBids', 'offers.myOffers'],
    ['nav.allBids', 'offers.tab'],
    ['myBids.yourBid', 'offers.yourOffer'],
    ['trade.placeBid', 'offers.makeTitle'],
    ['trade.submitBid', 'offers.submit'],
    ['trade.bidAmount', 'offers.amount'],
    ['trade.bidRequired', 'offers.amountRequired'],
    ['trade.bidding', 'offers.making'],
    ['trade.bidded', 'offers.made'],
    ['trade.bidFailed', 'offers.makeFailed'],
    ['trade.acceptTitle', 'offers.acceptTitle'],
    ['trade.rejectTitle', 'offers.rejectTitle'],
    ['trade.accepting', 'offers.accepting'],
    ['trade.rejecting', 'offers.rejecting'],
    ['trade.accepted', 'offers.accepted'],
    ['trade.rejected', 'offers.rejected'],
    ['nft.moreBids', 'offers.more'],
    ['activity.kinds.BID', 'activity.kinds.OFFER'],
    ['activity.events.BIDDED_FOR', 'activity.events.OFFER_MADE'],
    ['notices.kinds.BID_RECEIVED', 'notices.kinds.OFFER_RECEIVED'],
    ['notices.kinds.BID_REJECTED', 'notices.kinds.OFFER_REJECTED'],
  ]

  it.each(SUPPORTED_LANGUAGES)('%s has a word for bids and another for offers', (lng) => {
    const file = load(lng)
    const text = (key: string) => String(lookup(file, key)).toLocaleLowerCase(lng === 'ge' ? 'de' : lng)
    const same = BID_AND_OFFER_WORDS.filter(([bid, offer]) => text(bid) === text(offer)).map((pair) => pair.join(' = '))
    expect(same).toEqual([])
    // Nor does the bid side use the offer's title word ('Mes offres' beside 'Mes enchères').
    const myOffers = text('offers.myOffers')
    expect([text('myBids.title'), text('nav.allBids')]).not.toContain(myOffers)
  })
})
