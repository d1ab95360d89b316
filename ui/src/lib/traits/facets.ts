import useSWR from 'swr'
import { apiRequest } from '../api-client'

export const FACETS_PATH = '/api/nft/facets'

/** A trait value and how many NFTs would match with it (every other filter applied). */
export type FacetValue = { value: string; count: number; selected: boolean }
/** One trait's values, the most matched first; `distinct` counts them all when cut. */
export type Facet = { name: string; values: FacetValue[]; distinct: number }
/** The facets of a list and its length with every filter. */
export type Facets = { total: number; traits: Facet[] }

/** The list the facets are for, with its filters (the trait filter aside). */
export type FacetScope =
  | { scope: 'explore'; formOfSale: string; nftCategory?: string; search?: string }
  | { scope: 'collection'; collectionId: string; formOfSale: string; search?: string }
  | { scope: 'created' | 'owned'; userId: string; formOfSale: string; search?: string }

/** GET /api/nft/facets for `scope` with the chosen `traits`, `values` values per trait. */
export async function fetchFacets(scope: FacetScope, traits: readonly string[], values: number): Promise<Facets> {
  return (await apiRequest<Facets>(FACETS_PATH, { query: { ...scope, trait: traits, values } })).body
}

/**
 * The facets of a list (null: none yet, e.g. the user is not known). While new filters' counts
 * load, the previous ones stay shown (`keepPreviousData`), marked `stale`: each answer carries the
 * filters it counted, so `stale` is exact whatever the fetch's timing.
 */
export function useFacets(scope: FacetScope | null, traits: readonly string[], values: number) {
  const id = scope ? JSON.stringify([scope, traits, values]) : null
  const { data, isLoading } = useSWR(id && ['facets', id], async () => ({ id, traits, facets: await fetchFacets(scope as FacetScope, traits, values) }), {
    revalidateOnFocus: false,
    keepPreviousData: true,
  })
  return { data: data?.facets, isLoading, stale: !!data && data.id !== id, countedFor: data?.traits }
}
