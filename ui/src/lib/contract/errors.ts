/**
 * The contract's custom errors as sentences: one table keyed by the error's name (every error of
 * the ABI, the OpenZeppelin ones included; a test fails when one is missing), saying how each
 * argument is shown. The sentences are `contractErrors.{name}` in the translation files, their
 * placeholders named as the error's arguments in the ABI.
 */
import type { TFunction } from 'i18next'
import { formatDateTime, formatWeiMatic, localeTag, shortenAddress } from '@/lib/format'

/**
 * How an argument is shown: `matic` an amount in wei (exact, at least 3 decimals), `minimum` an
 * amount the chain asks at least (3 decimals, rounded up), `token` a token id, `time` seconds
 * since 1970, `address` shortened, `bps` basis points as a percentage, `count` a number.
 */
export type ErrorArg = 'matic' | 'minimum' | 'token' | 'time' | 'address' | 'bps' | 'count'

/** Every custom error of the contract's ABI, with the kind of each argument it names. */
export const CONTRACT_ERRORS: Record<string, Record<string, ErrorArg>> = {
  ERC721IncorrectOwner: { sender: 'address', tokenId: 'token', owner: 'address' },
  ERC721InsufficientApproval: { operator: 'address', tokenId: 'token' },
  ERC721InvalidApprover: { approver: 'address' },
  ERC721InvalidOperator: { operator: 'address' },
  ERC721InvalidOwner: { owner: 'address' },
  ERC721InvalidReceiver: { receiver: 'address' },
  ERC721InvalidSender: { sender: 'address' },
  ERC721NonexistentToken: { tokenId: 'token' },
  MarketplaceAuctionAwaitingSettlement: { tokenId: 'token' },
  MarketplaceAuctionExpired: { tokenId: 'token', endTime: 'time' },
  MarketplaceAuctionHasBid: { tokenId: 'token' },
  MarketplaceAuctionNotExpired: { tokenId: 'token', endTime: 'time' },
  MarketplaceBidAtOrAboveBuyNow: { buyNowPrice: 'matic', sent: 'matic' },
  MarketplaceBidTooLow: { minimum: 'minimum', sent: 'matic' },
  MarketplaceBuyNowNotAboveBase: { basePrice: 'matic', buyNowPrice: 'matic' },
  MarketplaceDuplicateRoyaltyReceiver: { receiver: 'address' },
  MarketplaceEmptyTokenURI: {},
  MarketplaceFeeTooHigh: { feeBps: 'bps' },
  MarketplaceForSale: { tokenId: 'token' },
  MarketplaceInAuction: { tokenId: 'token' },
  MarketplaceInvalidCart: {},
  MarketplaceInvalidEndTime: { endTime: 'time' },
  MarketplaceInvalidExpiry: { expiresAt: 'time' },
  MarketplaceInvalidHoldEnd: { until: 'time', latest: 'time' },
  MarketplaceModeratorIsOwner: { tokenId: 'token' },
  MarketplaceOfferTooLong: { expiresAt: 'time', latest: 'time' },
  MarketplacePriceTooHigh: { price: 'matic' },
  MarketplaceProceedsTooLow: { minProceeds: 'matic', proceeds: 'matic' },
  MarketplaceNoBid: { tokenId: 'token' },
  MarketplaceNoCredits: { account: 'address' },
  MarketplaceNoOffer: { tokenId: 'token', offerer: 'address' },
  MarketplaceNonexistentToken: { tokenId: 'token' },
  MarketplaceNotAdmin: { caller: 'address' },
  MarketplaceNotAuction: { tokenId: 'token' },
  MarketplaceNotForSale: { tokenId: 'token' },
  MarketplaceNotHeld: { tokenId: 'token' },
  MarketplaceNotModerator: { caller: 'address' },
  MarketplaceNotOwner: { tokenId: 'token' },
  MarketplaceNotPendingAdmin: { caller: 'address' },
  MarketplaceOfferChanged: { expected: 'matic', amount: 'matic' },
  MarketplaceOfferExpired: { tokenId: 'token', offerer: 'address', expiresAt: 'time' },
  MarketplaceOwnerCannotBid: { tokenId: 'token' },
  MarketplaceOwnerCannotBuy: { tokenId: 'token' },
  MarketplaceOwnerCannotOffer: { tokenId: 'token' },
  MarketplaceRoyaltyLengthMismatch: { receivers: 'count', shares: 'count' },
  MarketplaceRoyaltyTooHigh: { totalBps: 'bps' },
  MarketplaceSaleHeld: { tokenId: 'token', until: 'time' },
  MarketplaceSelfAdmin: {},
  MarketplaceSelfRoyaltyReceiver: {},
  MarketplaceTooManyRoyalties: { count: 'count' },
  MarketplaceUnexpectedSaleParameters: {},
  MarketplaceWithdrawFailed: { recipient: 'address', amount: 'matic' },
  MarketplaceWrongValue: { expected: 'matic', sent: 'matic' },
  MarketplaceZeroAddress: {},
  MarketplaceZeroPrice: {},
  MarketplaceZeroRoyaltyReceiver: {},
  MarketplaceZeroRoyaltyShare: {},
  ReentrancyGuardReentrantCall: {},
}

/** A decoded revert: the error's name and its arguments by name (viem gives them in ABI order). */
export type DecodedError = { name: string; args: Record<string, unknown> }

function showArg(kind: ErrorArg, value: unknown, lng: string | undefined): string {
  const text = typeof value === 'bigint' ? value.toString() : String(value ?? '')
  switch (kind) {
    case 'matic':
      return formatWeiMatic(text, lng, { exact: true })
    case 'minimum':
      return formatWeiMatic(text, lng, { rounding: 'up' })
    case 'time':
      return /^\d+$/.test(text) ? formatDateTime(Number(text) * 1000, lng) : text
    case 'address':
      return shortenAddress(text)
    case 'bps':
      return new Intl.NumberFormat(localeTag(lng), { style: 'percent', maximumFractionDigits: 2 }).format(Number(text) / 10000)
    default:
      return text
  }
}

/** The sentence of a known error in the user's language, or null for an error not in the table. */
export function contractErrorText(t: TFunction, error: DecodedError, lng?: string): string | null {
  const kinds = CONTRACT_ERRORS[error.name]
  if (!kinds) return null
  const values: Record<string, string> = {}
  for (const [name, kind] of Object.entries(kinds)) values[name] = showArg(kind, error.args[name], lng)
  // The key is built from the ABI's names, so it cannot be typed; errors.test.ts checks that each
  // has a sentence in every language naming only the error's arguments.
  const translate = t as unknown as (key: string, values: Record<string, string>) => string
  return translate(`contractErrors.${error.name}`, values)
}
