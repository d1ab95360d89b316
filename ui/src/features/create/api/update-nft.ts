import { apiRequest } from '@/lib/api-client'
import type { FormOfSale } from '../validation'
import { SALE_COIN } from './record-generation'

export type NftUpdate = {
  formOfSale: FormOfSale
  /** MATIC: the fixed price, or the auction's buy-now price. */
  fixedPrice: string
  /** MATIC: the auction's base price ("0" for a fixed price). */
  auctionStartPrice: string
  /** The auction's end in milliseconds since the epoch (0 for a fixed price). */
  auctionEndHours: number
  /** The confirmed toggle-for-sale transaction. */
  transactionHash: string
}

/**
 * PUT /api/nft/update/{id} (JSON) once the toggle-for-sale transaction is confirmed. The server
 * reads that transaction itself; a non-2xx answer throws with its message.
 */
export function updateNft(id: string, update: NftUpdate) {
  return apiRequest<unknown>(`/api/nft/update/${encodeURIComponent(id)}`, {
    method: 'PUT',
    json: { ...update, saleCoin: Number(SALE_COIN) },
  })
}
