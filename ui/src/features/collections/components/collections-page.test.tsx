import { describe, expect, it } from 'vitest'
import { COLLECTION_SORTS, collectionsFilter } from './collections-page'

describe('collections grid filter', () => {
  it('reads the sort, the search and "verified only" from the URL, newest of all by default', () => {
    expect(collectionsFilter(new URLSearchParams())).toEqual({ sort: COLLECTION_SORTS[0], search: '', verifiedOnly: false })
    expect(collectionsFilter(new URLSearchParams('verified=1')).verifiedOnly).toBe(true)
    const named = collectionsFilter(new URLSearchParams('sort=name&search=%20birds%20'))
    expect([named.sort.sortBy, named.sort.orderBy, named.search]).toEqual(['TITLE', 1, 'birds'])
    expect(collectionsFilter(new URLSearchParams('sort=items')).sort.sortBy).toBe('ITEMS')
    expect(collectionsFilter(new URLSearchParams('sort=liked')).sort.sortBy).toBe('POPULARITY')
    expect(collectionsFilter(new URLSearchParams('sort=bogus')).sort.id).toBe('newest')
  })
})
