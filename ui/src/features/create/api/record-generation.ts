import type { TransactionReceipt } from 'viem'
import { apiRequest } from '@/lib/api-client'
import type { FormOfSale } from '../validation'

/** The off-chain facts of a minted token, recorded after its mint is confirmed. */
export type Generation = {
  formOfSale: FormOfSale
  /** The token URI the upload answered (`ipfs://<cid>`). */
  metaData: string
  receipt: TransactionReceipt
  /** Category id. */
  nftCategory: string
  /** MATIC: the fixed price, or the auction's buy-now price; "0" when not for sale. */
  fixedPrice: string
  /** MATIC: the auction's base price; "0" otherwise. */
  auctionStartPrice: string
  /** The auction's end in milliseconds since the epoch; 0 otherwise. */
  auctionEndHours: number
  royalty: { walletAddress: string; percentage: number }[]
}

/** JSON of a receipt: viem's bigints as decimal strings. */
export const receiptJson = (receipt: TransactionReceipt) =>
  JSON.stringify(receipt, (_key, value) => (typeof value === 'bigint' ? value.toString() : value))

/** The sale coin code of MATIC. */
export const SALE_COIN = '1'

/**
 * POST /api/nft/generation, form-urlencoded: the sale, the metadata URI, the mint receipt (JSON)
 * and its transaction hash, the category id, prices, auction end and royalty rows (JSON). The
 * server reads the receipt over RPC itself; the client's copy is informational.
 */
export async function recordGeneration(generation: Generation) {
  const fields = new URLSearchParams({
    formOfSale: generation.formOfSale,
    saleCoin: SALE_COIN,
    mintNft: 'true',
    metaData: generation.metaData,
    mintResponse: receiptJson(generation.receipt),
    nftCategory: generation.nftCategory,
    fixedPrice: generation.fixedPrice,
    auctionStartPrice: generation.auctionStartPrice,
    auctionEndHours: String(generation.auctionEndHours),
    royalty: JSON.stringify(generation.royalty),
    transactionHash: generation.receipt.transactionHash,
  })
  return apiRequest<unknown>('/api/nft/generation', { method: 'POST', urlencoded: fields })
}
