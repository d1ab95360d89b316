/**
 * An NFT's metadata as the server reads it from its token URI (tokens minted without this UI):
 * GET /api/nft/{id}/metadata and POST /api/nft/{id}/metadata/refresh.
 */
import useSWR from 'swr'
import { apiRequest, getBody } from '@/lib/api-client'

/** CREATOR: described by its creator here (nothing read); the others: see the API's docs. */
export type MetadataStatus = 'CREATOR' | 'PENDING' | 'RETRYING' | 'FETCHED' | 'FAILED'

export type NftMetadataState = {
  status: MetadataStatus
  reason: string
  tokenUri: string
  attempts: number
  nextAttemptAt?: string | null
  updatedAt?: string | null
}

export const nftMetadataKey = (id: string) => `/api/nft/${encodeURIComponent(id)}/metadata`

/** While pending, the server reads within seconds: look again every `PENDING_POLL_MS`. */
export const PENDING_POLL_MS = 2000

/** The state, polled while it is pending. Errors (an old server, a network hiccup) show nothing. */
export function useNftMetadata(id: string | undefined) {
  return useSWR<NftMetadataState>(id ? nftMetadataKey(id) : null, getBody, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
    refreshInterval: (state) => (state?.status === 'PENDING' ? PENDING_POLL_MS : 0),
  })
}

/** Asks for the metadata to be read again: the state right after (PENDING). */
export async function refreshNftMetadata(id: string): Promise<NftMetadataState> {
  return (await apiRequest<NftMetadataState>(`${nftMetadataKey(id)}/refresh`, { method: 'POST' })).body
}
