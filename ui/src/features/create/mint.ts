/**
 * What create asset sends: the contract's `mint` arguments and the sale fields of the record
 * call, from the checked form values. Units as `contracts/src/Marketplace.sol` takes them: wei,
 * royalty shares in basis points, the auction end in seconds.
 */
import { formatEther } from 'viem'
import { type FormOfSale, type RoyaltyRow, type SaleValues, parseLocalDateTime, toBps, toWei } from './validation'

/** `Marketplace.SaleType`. */
export const CONTRACT_SALE_TYPE: Record<FormOfSale, number> = { NOT_FOR_SALE: 0, FIXEDPRICE: 1, AUCTION: 2 }

/** The chain's view of a sale: type, price (fixed or buy-now), base price (wei), end (seconds). */
export function chainSale(sale: SaleValues) {
  const auction = sale.formOfSale === 'AUCTION'
  const endMs = auction ? (parseLocalDateTime(sale.auctionEnd)?.getTime() ?? 0) : 0
  return {
    saleType: CONTRACT_SALE_TYPE[sale.formOfSale],
    price: sale.formOfSale === 'FIXEDPRICE' ? toWei(sale.price) : auction ? toWei(sale.buyPrice) : 0n,
    basePrice: auction ? toWei(sale.basePrice) : 0n,
    endSeconds: BigInt(Math.floor(endMs / 1000)),
    endMs,
  }
}

/** `mint(uri, saleType, royaltyReceivers, royaltyBps, auctionEndTime, basePrice, price)`. */
export function mintArgs(tokenUri: string, sale: SaleValues, royalties: RoyaltyRow[]) {
  const chain = chainSale(sale)
  return [
    tokenUri,
    chain.saleType,
    royalties.map((r) => r.address as `0x${string}`),
    royalties.map((r) => toBps(r.percentage)),
    chain.endSeconds,
    chain.basePrice,
    chain.price,
  ] as const
}

/**
 * The sale fields of the record calls (generation and update), prices in MATIC as the chain will
 * hold them (so '1.50' is sent as '1.5'): `fixedPrice` is the fixed or buy-now price,
 * `auctionStartPrice` the base price, `auctionEndHours` the end in milliseconds; "0" / 0 when
 * they do not apply.
 */
export function recordedSale(sale: SaleValues) {
  const chain = chainSale(sale)
  return {
    formOfSale: sale.formOfSale,
    fixedPrice: formatEther(chain.price),
    auctionStartPrice: formatEther(chain.basePrice),
    auctionEndHours: chain.endMs,
  }
}

/** Royalty rows as the record call takes them: `{walletAddress, percentage}`. */
export const recordedRoyalties = (royalties: RoyaltyRow[]) =>
  royalties.map((r) => ({ walletAddress: r.address, percentage: Number(r.percentage) }))
