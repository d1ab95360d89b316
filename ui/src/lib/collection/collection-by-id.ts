import useSWR from 'swr'
import { getBody } from '../api-client'
import type { Collection } from './types'

export const collectionByIdKey = (id: string) => `/api/collection/browsebyid/${encodeURIComponent(id)}`

/** GET /api/collection/browsebyid/{id}: the collection's title and image (and the rest of it). */
export function useCollectionById(id: string | undefined | null) {
  return useSWR<Collection>(id ? collectionByIdKey(id) : null, getBody, { revalidateOnFocus: false, shouldRetryOnError: false })
}
