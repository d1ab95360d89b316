import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { stubApi } from '@/testing/fetch'
import { renderRoutes } from '@/testing/render'
import { CollectionDetailPage } from './collection-detail-page'
import { CollectionsPage } from './collections-page'

const person = { userId: 'u2', username: 'trinity', fullName: 'Trinity', avatar: '' }
const nft = (i: number) => ({
  _id: `n${i}`, nftTokenId: String(i), file: `/ipfs/${i}.png`, title: `Piece ${i}`, description: '', nftCategory: '1', metadataUrl: '', fixedPrice: '2', formOfSale: 'FIXEDPRICE',
  contractAddress: '0x0', contractType: 'ERC721', coinName: 'MATIC', totalLikes: 1, isLiked: false, isBookmarked: false, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
  currentAuction: null, highestBid: '0', royalty: [], properties: [], transactionHash: '', creator: person, currentOwner: person,
})
const routes = [
  { path: '/collections', element: <CollectionsPage /> },
  { path: '/collections/collection/:id', element: <CollectionDetailPage /> },
  { path: '/user/:uid/collection/:id', element: <CollectionDetailPage /> },
]

describe('collection detail', () => {
  afterEach(() => vi.unstubAllGlobals())

  it("shows 'fetching...' until the title is known, lists the fixed-price NFTs 9 a page, and Back goes back", async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const api = stubApi([
      { path: '/api/collection/browse', body: { data: [], currentPage: 1, lastPage: true, totalItems: 0 } },
      { path: '/api/collection/browsebyid/c1', body: { _id: 'c1', title: 'Night city', image: '/ipfs/c1.png', creator: { userId: 'u2', username: 'trinity' }, isLiked: false, totalLikes: 0 } },
      { path: '/api/nft/browsebycollection/c1', body: { data: [nft(1), nft(2)], currentPage: 1, lastPage: true, totalItems: 2 } },
    ])
    const real = api.getMockImplementation()!
    api.mockImplementation(async (input, init) => {
      if (String(input).includes('browsebyid')) await gate
      return real(input, init)
    })
    const { router } = renderRoutes(routes, '/collections')
    await screen.findByText('No collections found')
    void router.navigate('/collections/collection/c1')
    expect(await screen.findByTestId('collection-chip')).toHaveTextContent('fetching...')
    expect(await screen.findByText('Piece 2')).toBeInTheDocument()
    release()
    await waitFor(() => expect(screen.getByTestId('collection-chip')).toHaveTextContent('Night city'))
    expect(api.mock.calls.map(([u]) => String(u))).toContain('/api/nft/browsebycollection/c1?limit=9&formOfSale=FIXEDPRICE&sortBy=DATE&orderBy=0&page=1')

    // The chip is the title only (no "x" that reads as Remove); Back is a labelled arrow.
    expect(within(screen.getByTestId('collection-chip')).queryByRole('button')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Back' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/collections'))
  })

  it('Back leads to the collections when the collection was the first page of the visit', async () => {
    stubApi([
      { path: '/api/collection/browse', body: { data: [], currentPage: 1, lastPage: true, totalItems: 0 } },
      { path: '/api/collection/browsebyid/c1', body: { _id: 'c1', title: 'Night city', image: '', creator: { userId: 'u2', username: 'trinity' }, isLiked: false, totalLikes: 0 } },
      { path: '/api/nft/browsebycollection/c1', body: { data: [], currentPage: 1, lastPage: true, totalItems: 0 } },
    ])
    const { router } = renderRoutes(routes, '/user/u2/collection/c1')
    await userEvent.click(await screen.findByRole('button', { name: 'Back' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/collections'))
  })

  it("a collection that cannot be loaded shows the server's message", async () => {
    stubApi([
      { path: '/api/collection/browsebyid/gone', status: 404, message: 'Collection not found' },
      { path: '/api/nft/browsebycollection/gone', status: 404, message: 'Collection not found' },
    ])
    vi.spyOn(console, 'error').mockImplementation(() => {})
    renderRoutes(routes, '/user/u2/collection/gone')
    expect((await screen.findAllByText('Collection not found')).length).toBeGreaterThan(0)
    expect(screen.getByTestId('collection-chip')).toHaveTextContent('fetching...')
  })
})
