/**
 * The rules of the create and update forms (marketplace.md section 5). Each rule answers a
 * translation key under `createAsset.errors.` (or null); the forms translate them, so tests can
 * assert the spec's English messages verbatim. Validation runs on submit only.
 */
import { isAddress, parseEther, parseUnits } from 'viem'
import type { TranslationKey } from '@/lib/i18n'
import type { Errors } from '@/lib/validation'

/** The sale forms of the spec, as the API spells them. */
export type FormOfSale = 'FIXEDPRICE' | 'AUCTION' | 'NOT_FOR_SALE'

/** MATIC has 18 decimals: more cannot be sent on chain. */
export const PRICE_DECIMALS = 18
/** An auction may end at most 168 hours (7 days) ahead. */
export const MAX_AUCTION_HOURS = 168
/**
 * ...and as early as one minute ago: the date-time input has minute precision and defaults to
 * now, so "now" truncated to the minute must pass.
 */
export const AUCTION_END_GRACE_MS = 60_000
/** At most 2 royalty rows, each and their sum below 100%. */
export const MAX_ROYALTIES = 2
/**
 * The contract keeps room for its largest service fee (10%): royalties may add up to 90% at most
 * (`MAX_ROYALTY_BPS` in contracts/src/Marketplace.sol). Above that the mint would revert.
 */
export const MAX_ROYALTY_TOTAL_PERCENT = 90
/** Royalty shares go on chain in basis points: percentages keep at most 2 decimals. */
export const ROYALTY_PERCENT_DECIMALS = 2

const NUMBER_RE = /^-?(\d+\.?\d*|\.\d+)$/

/** Step 0 of create asset. */
export type AssetDetails = { title: string; description: string; category: string; file: File | null }

/** Step 0, in the spec's order: name, description, category, image. */
export function validateAssetDetails(values: AssetDetails): Errors<AssetDetails> {
  const errors: Errors<AssetDetails> = {}
  if (!values.title.trim()) errors.title = 'createAsset.errors.nameRequired'
  if (!values.description.trim()) errors.description = 'createAsset.errors.descriptionRequired'
  if (!values.category) errors.category = 'createAsset.errors.categoryRequired'
  if (!values.file) errors.file = 'createAsset.errors.imageRequired'
  return errors
}

/** The sale part of step 1, and of the update page. Prices are typed in MATIC. */
export type SaleValues = {
  formOfSale: FormOfSale
  /** Fixed price. */
  price: string
  /** Auction: the minimum first bid. */
  basePrice: string
  /** Auction: the buy-now price. */
  buyPrice: string
  /** Auction end, as a `datetime-local` value (local time). */
  auctionEnd: string
}

export type SaleErrors = Errors<SaleValues & { royalty: string }>

/** Whether `raw` is a plain decimal number (what a number input gives). */
const isNumber = (raw: string) => NUMBER_RE.test(raw.trim())
const decimalsOf = (raw: string) => raw.trim().split('.')[1]?.length ?? 0
/** Exact comparison of two decimal strings (parseUnits with room for any sane precision). */
const exact = (raw: string) => parseUnits(raw.trim(), 80)

/**
 * One price, in the spec's order: missing or 0 (`requiredKey`), negative ('Should be greater
 * than 0'), more than 18 decimals. A value that is not a number counts as missing.
 */
export function checkPrice(raw: string, requiredKey: TranslationKey): TranslationKey | null {
  if (!isNumber(raw) || exact(raw) === 0n) return requiredKey
  if (exact(raw) < 0n) return 'createAsset.errors.greaterThanZero'
  if (decimalsOf(raw) > PRICE_DECIMALS) return 'createAsset.errors.tooManyDecimals'
  return null
}

/** A checked price in wei (call only after [checkPrice] passed). */
export const toWei = (raw: string) => parseEther(raw.trim())

/** A `datetime-local` value as a Date; null when it is not one. */
export function parseLocalDateTime(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

/** A Date as a `datetime-local` value in local time, to the minute. */
export function toLocalDateTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/**
 * The auction end: a date between one minute ago and 168 hours ahead ('invalid date'). The
 * contract also needs it to be in the future, which the spec's one-minute grace does not say:
 * an end that has already passed gets its own message rather than a reverted transaction.
 */
export function checkAuctionEnd(value: string, now: Date): TranslationKey | null {
  const end = parseLocalDateTime(value)
  if (!end) return 'createAsset.errors.invalidDate'
  const at = end.getTime()
  if (at < now.getTime() - AUCTION_END_GRACE_MS || at > now.getTime() + MAX_AUCTION_HOURS * 3_600_000) {
    return 'createAsset.errors.invalidDate'
  }
  if (at <= now.getTime()) return 'createAsset.errors.endInFuture'
  return null
}

/**
 * The sale fields in the spec's order: fixed price; base and buy price, then buy above base;
 * royalty information unless not for sale; negative prices; more than 18 decimals; the date.
 * Each field shows its first failing rule in that order. `royaltyRows` is null on the update
 * page, where royalties are fixed since the mint.
 */
export function validateSale(values: SaleValues, royaltyRows: RoyaltyRow[] | null, now: Date): SaleErrors {
  const errors: SaleErrors = {}
  if (values.formOfSale === 'FIXEDPRICE') {
    const price = checkPrice(values.price, 'createAsset.errors.priceRequired')
    if (price) errors.price = price
  }
  if (values.formOfSale === 'AUCTION') {
    const base = checkPrice(values.basePrice, 'createAsset.errors.basePriceRequired')
    const buy = checkPrice(values.buyPrice, 'createAsset.errors.buyPriceRequired')
    if (base) errors.basePrice = base
    if (buy === 'createAsset.errors.buyPriceRequired') errors.buyPrice = buy
    else if (isNumber(values.basePrice) && exact(values.buyPrice) <= exact(values.basePrice)) {
      errors.buyPrice = 'createAsset.errors.buyAboveBase'
    } else if (buy) errors.buyPrice = buy
    const end = checkAuctionEnd(values.auctionEnd, now)
    if (end) errors.auctionEnd = end
  }
  if (royaltyRows && values.formOfSale !== 'NOT_FOR_SALE' && royaltyRows.length === 0) {
    errors.royalty = 'createAsset.errors.royaltyRequired'
  }
  return errors
}

/** The first error of a form in the order its rules run (to focus or announce it). */
export function firstError<T>(errors: Errors<T>, order: (keyof T)[]): keyof T | null {
  return order.find((key) => !!errors[key]) ?? null
}

/** A royalty row of the popup: the receiver's address and its percentage. */
export type RoyaltyRow = { id: string; address: string; percentage: string }

/**
 * The royalty popup on Save, in the spec's order: both fields required; each percentage and
 * their sum below 100; two different addresses. Then what the contract needs: real Ethereum
 * addresses (the hint, shown as an error), shares above 0 with at most 2 decimals, and a total of
 * at most 90%. Answers the first failing rule.
 */
export function validateRoyalties(rows: RoyaltyRow[]): TranslationKey | null {
  if (rows.length > MAX_ROYALTIES) return 'createAsset.royaltyDialog.errors.max'
  if (rows.some((r) => !r.address.trim() || !r.percentage.trim())) return 'createAsset.royaltyDialog.errors.bothRequired'
  const percents = rows.map((r) => (isNumber(r.percentage) ? Number(r.percentage) : NaN))
  const total = percents.reduce((sum, p) => sum + p, 0)
  if (percents.some((p) => !(p < 100)) || !(total < 100)) return 'createAsset.royaltyDialog.errors.below100'
  const addresses = rows.map((r) => r.address.trim().toLowerCase())
  if (new Set(addresses).size !== addresses.length) return 'createAsset.royaltyDialog.errors.sameAddress'
  if (rows.some((r) => !isAddress(r.address.trim(), { strict: false }))) return 'createAsset.royaltyDialog.hint'
  if (percents.some((p) => !(p > 0))) return 'createAsset.errors.greaterThanZero'
  if (rows.some((r) => decimalsOf(r.percentage) > ROYALTY_PERCENT_DECIMALS)) return 'createAsset.royaltyDialog.errors.decimals'
  if (total > MAX_ROYALTY_TOTAL_PERCENT) return 'createAsset.royaltyDialog.errors.contractMax'
  return null
}

/** A royalty percentage in basis points, as the contract takes it (2.5% is 250). */
export const toBps = (percentage: string) => parseUnits(percentage.trim(), ROYALTY_PERCENT_DECIMALS)

/** A property row of the popup. */
export type PropertyRow = { id: string; key: string; value: string }

/**
 * The properties popup on Save: rows left entirely empty are dropped; a row with only one of its
 * two fields is refused (the metadata's attributes need both).
 */
export function validateProperties(rows: PropertyRow[]): TranslationKey | null {
  if (rows.some((r) => !!r.key.trim() !== !!r.value.trim())) return 'createAsset.propertiesDialog.errors.bothRequired'
  return null
}

/** The rows kept on Save: trimmed, without the entirely empty ones. */
export const keptProperties = (rows: PropertyRow[]) =>
  rows.map((r) => ({ ...r, key: r.key.trim(), value: r.value.trim() })).filter((r) => r.key && r.value)
