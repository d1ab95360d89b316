import Cookies from 'js-cookie'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RequireAuth } from '@/app/guards'
import { TOKEN_COOKIE, useSession } from '@/lib/auth'
import type { Nft } from '@/lib/nft/types'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { FavouritesPage } from './favourites-page'

const person = { userId: 'u2', username: 'trinity', fullName: 'Trinity', avatar: '' }
const nft = (i: number): Nft => ({
  _id: `n${i}`, nftTokenId: String(i), file: `/ipfs/${i}.png`, title: `Bookmarked ${i}`, description: '', nftCategory: '1', metadataUrl: '', fixedPrice: '2', formOfSale: 'FIXEDPRICE',
  contractAddress: '0x0', contractType: 'ERC721', coinName: 'MATIC', totalLikes: 1, isLiked: false, isBookmarked: true, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
  currentAuction: null, highestBid: '0', royalty: [], properties: [], transactionHash: '', creator: person, currentOwner: person,
})
const page = <T,>(data: T[]) => ({ data, currentPage: 1, lastPage: true, totalItems: data.length })
const signIn = () => {
  Cookies.set(TOKEN_COOKIE, 'tok')
  useSession.setState({ token: 'tok' })
}

describe('favourites', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('nft-bookmark lists fixed-price bookmarks; the Auctions button switches to auction bookmarks', async () => {
    signIn()
    const api = stubApi([
      { path: /browsebookmarked\?.*formOfSale=FIXEDPRICE/, body: page([nft(1)]) },
      { path: /browsebookmarked\?.*formOfSale=AUCTION/, body: page([]) },
    ])
    const { router } = renderPage(<FavouritesPage />, { path: '/favourites', at: '/favourites?type=nft-bookmark' })
    expect(await screen.findByText('Bookmarked 1')).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: /NFTs/ })).toHaveAttribute('aria-selected', 'true')

    await userEvent.click(screen.getByRole('tab', { name: /Auctions/ }))
    expect(await screen.findByText('no data')).toBeInTheDocument()
    expect(router.state.location.search).toBe('?type=auction-bookmark')
    const asked = api.mock.calls.map(([u]) => Object.fromEntries(new URL(String(u), 'http://x').searchParams))
    expect(asked).toEqual([
      { limit: '9', formOfSale: 'FIXEDPRICE', sortBy: 'DATE', orderBy: '0', page: '1' },
      { limit: '9', formOfSale: 'AUCTION', sortBy: 'DATE', orderBy: '0', page: '1' },
    ])
  })

  it('auction-bookmark opens on the auction list, and search and sort reload it from page 1', async () => {
    signIn()
    const api = stubApi([{ path: '/api/nft/browsebookmarked', body: page([]) }])
    renderPage(<FavouritesPage />, { path: '/favourites', at: '/favourites?type=auction-bookmark' })
    expect(await screen.findByText('no data')).toBeInTheDocument()
    await userEvent.type(screen.getByPlaceholderText('Search your bookmarks'), 'owl{Enter}')
    await waitFor(() => expect(api).toHaveBeenCalledTimes(2))
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'POPULARITY')
    await waitFor(() => expect(api).toHaveBeenCalledTimes(3))
    expect(String(api.mock.calls[2][0])).toBe('/api/nft/browsebookmarked?limit=9&formOfSale=AUCTION&sortBy=POPULARITY&orderBy=0&search=owl&page=1')
  })

  it('needs a login: a visitor goes to sign-in with the page as callback', async () => {
    renderPage(<RequireAuth><FavouritesPage /></RequireAuth>, { path: '/favourites', at: '/favourites?type=auction-bookmark' })
    expect(await screen.findByTestId('location')).toHaveTextContent('/authentication/sign-in?callbackURL=%2Ffavourites%3Ftype%3Dauction-bookmark')
  })
})
