import Cookies from 'js-cookie'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, type UserProfile, useSession } from '@/lib/auth'
import type { Nft } from '@/lib/nft/types'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { MyProfilePage } from './my-profile-page'
import { UserProfilePage } from './user-profile-page'

const me: UserProfile = {
  userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'Thomas Anderson', mobileNumber: '', avatar: '', bio: '', coverImage: '', authProvider: 'EMAIL', connectedWallet: [],
}
const other = { userId: 'u2', username: 'trinity', fullName: 'Trinity', avatar: '', bio: '', coverImage: '' }
const person = (userId: string, username: string) => ({ userId, username, fullName: username, avatar: '' })
const nft = (id: string, title: string): Nft => ({
  _id: id, nftTokenId: id.replace(/\D/g, ''), file: `/ipfs/${id}.png`, title, description: '', nftCategory: '1', metadataUrl: '', fixedPrice: '1.5', formOfSale: 'FIXEDPRICE',
  contractAddress: '0x0', contractType: 'ERC721', coinName: 'MATIC', totalLikes: 0, isLiked: false, isBookmarked: false, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
  currentAuction: null, highestBid: '0', royalty: [], properties: [], transactionHash: '', creator: person('u2', 'trinity'), currentOwner: person('u2', 'trinity'),
})
const page = <T,>(data: T[]) => ({ data, currentPage: 1, lastPage: true, totalItems: data.length })
const counts = { collections: 2, created: 5, owned: 4, inAuction: 1, inSale: 3 }

/** The query of every call to a path, in order. */
function queries(api: ReturnType<typeof stubApi>, path: string) {
  return api.mock.calls
    .map(([u]) => new URL(String(u), 'http://x'))
    .filter((u) => u.pathname === path)
    .map((u) => Object.fromEntries(u.searchParams))
}

describe('profile item tabs', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it("another user's tabs show their totals and load only the active tab, from that user's public calls", async () => {
    const api = stubApi([
      { path: '/api/account/getuserprofile/u2', body: other },
      { path: '/api/nft/profilecounts/u2', body: counts },
      { path: '/api/collection/browse', body: page([]) },
      { path: '/api/nft/usersnftartwork/u2', body: page([nft('n1', 'Owned piece')]) },
      { path: '/api/nft/usercreatednft/u2', body: page([nft('n2', 'Created piece')]) },
    ])
    renderPage(<UserProfilePage />, { path: '/user/:userId', at: '/user/u2' })
    expect(await screen.findByTestId('total-created')).toHaveTextContent('5')
    expect(screen.getByTestId('total-inSale')).toHaveTextContent('3')
    expect(await screen.findByText('No collections yet')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Create/ })).not.toBeInTheDocument()
    expect(queries(api, '/api/collection/browse')).toEqual([{ userId: 'u2', sortBy: 'DATE', orderBy: '0', limit: '9', page: '1' }])
    expect(queries(api, '/api/nft/usersnftartwork/u2')).toEqual([])

    await userEvent.click(screen.getByTestId('tab-inAuction'))
    expect(await screen.findByText('Owned piece')).toBeInTheDocument()
    expect(screen.getByPlaceholderText('Search NFTs in auction')).toBeInTheDocument()
    expect(queries(api, '/api/nft/usersnftartwork/u2')).toEqual([{ limit: '9', formOfSale: 'AUCTION', sortBy: 'DATE', orderBy: '0', page: '1' }])
    expect(queries(api, '/api/nft/usercreatednft/u2')).toEqual([])
    // No sale-type filter outside the Created tab.
    expect(screen.queryByLabelText('Sale type')).not.toBeInTheDocument()
  })

  it('changing sort, order, search or sale type reloads the active tab from page 1', async () => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    useSession.setState({ token: 'tok', user: me })
    const api = stubApi([
      { path: '/api/account/myprofile', body: me },
      { path: '/api/nft/profilecounts/u1', body: counts },
      { path: '/api/nft/mycreatednft', body: page([nft('n2', 'Created piece')]) },
    ])
    renderPage(<MyProfilePage />, { path: '/myprofile', at: '/myprofile?tab=created' })
    expect(await screen.findByText('Created piece')).toBeInTheDocument()
    expect(screen.getByPlaceholderText('Search created NFTs')).toBeInTheDocument()

    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'POPULARITY' } })
    await waitFor(() => expect(queries(api, '/api/nft/mycreatednft')).toHaveLength(2))
    fireEvent.change(screen.getByLabelText('Order by'), { target: { value: '1' } })
    await waitFor(() => expect(queries(api, '/api/nft/mycreatednft')).toHaveLength(3))
    fireEvent.change(screen.getByLabelText('Sale type'), { target: { value: 'AUCTION' } })
    await waitFor(() => expect(queries(api, '/api/nft/mycreatednft')).toHaveLength(4))
    await userEvent.type(screen.getByPlaceholderText('Search created NFTs'), 'moon{Enter}')
    await waitFor(() => expect(queries(api, '/api/nft/mycreatednft')).toHaveLength(5))

    expect(queries(api, '/api/nft/mycreatednft')).toEqual([
      { limit: '9', formOfSale: 'ALL', sortBy: 'DATE', orderBy: '0', page: '1' },
      { limit: '9', formOfSale: 'ALL', sortBy: 'POPULARITY', orderBy: '0', page: '1' },
      { limit: '9', formOfSale: 'ALL', sortBy: 'POPULARITY', orderBy: '1', page: '1' },
      { limit: '9', formOfSale: 'AUCTION', sortBy: 'POPULARITY', orderBy: '1', page: '1' },
      { limit: '9', formOfSale: 'AUCTION', sortBy: 'POPULARITY', orderBy: '1', search: 'moon', page: '1' },
    ])
    // Only the active tab loads.
    expect(queries(api, '/api/nft/mynftartwork')).toEqual([])
    expect(queries(api, '/api/collection/browse')).toEqual([])
  })

  it('the own Collections tab has Create, and a created collection reloads the tab and its total', async () => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    useSession.setState({ token: 'tok', user: me })
    const api = stubApi([
      { path: '/api/account/myprofile', body: me },
      { path: '/api/nft/profilecounts/u1', body: counts },
      { path: '/api/collection/browse', body: page([]) },
      { method: 'POST', path: '/api/collection', body: null },
    ])
    renderPage(<MyProfilePage />, { path: '/myprofile', at: '/myprofile' })
    expect(await screen.findByText('No collections yet')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /Create/ }))
    const dialog = await screen.findByTestId('collection-dialog')
    // A JPEG by its content (the dialog checks the bytes, not the name).
    const jpeg = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16])], 'a.jpg', { type: 'image/jpeg' })
    fireEvent.change(within(dialog).getByTestId('collection-image-input'), { target: { files: [jpeg] } })
    expect(await within(dialog).findByRole('img', { name: 'Collection image' })).toBeInTheDocument()
    await userEvent.type(within(dialog).getByPlaceholderText('My collection'), 'Night')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Collection Created!')).toBeInTheDocument()
    await waitFor(() => expect(queries(api, '/api/collection/browse')).toHaveLength(2))
    await waitFor(() => expect(queries(api, '/api/nft/profilecounts/u1')).toHaveLength(2))
    expect(queries(api, '/api/collection/browse')[1]).toEqual({ userId: 'u1', sortBy: 'DATE', orderBy: '0', limit: '9', page: '1' })
  })

  it('without a collections figure in the profile counts, the Collections total is the list\'s totalItems', async () => {
    const api = stubApi([
      { path: '/api/account/getuserprofile/u2', body: other },
      { path: '/api/nft/profilecounts/u2', body: { created: 5, owned: 4, inAuction: 1, inSale: 3 } },
      { path: '/api/collection/browse', body: { data: [], currentPage: 1, lastPage: true, totalItems: 7 } },
    ])
    renderPage(<UserProfilePage />, { path: '/user/:userId', at: '/user/u2?tab=owned' })
    expect(await screen.findByTestId('total-collections')).toHaveTextContent('7')
    expect(queries(api, '/api/collection/browse')).toEqual([{ userId: 'u2', page: '1', limit: '1' }])
  })

  it('another user loads their own tabs, and a new tab starts without the previous search', async () => {
    const api = stubApi([
      { path: '/api/account/getuserprofile/u2', body: other },
      { path: '/api/account/getuserprofile/u3', body: { ...other, userId: 'u3', username: 'morpheus' } },
      { path: /profilecounts\/u\d/, body: counts },
      { path: /usersnftartwork\/u\d/, body: page([nft('n1', 'Owned piece')]) },
    ])
    const { router } = renderPage(<UserProfilePage />, { path: '/user/:userId', at: '/user/u2?tab=owned' })
    expect(await screen.findByText('Owned piece')).toBeInTheDocument()
    await userEvent.type(screen.getByPlaceholderText('Search owned NFTs'), 'cat{Enter}')
    await waitFor(() => expect(queries(api, '/api/nft/usersnftartwork/u2').at(-1)?.search).toBe('cat'))
    await userEvent.click(screen.getByTestId('tab-inSale'))
    await waitFor(() => expect(queries(api, '/api/nft/usersnftartwork/u2').at(-1)).toEqual({ limit: '9', formOfSale: 'FIXEDPRICE', sortBy: 'DATE', orderBy: '0', page: '1' }))
    expect(screen.getByPlaceholderText('Search NFTs on sale')).toHaveValue('')

    await act(() => router.navigate('/user/u3?tab=owned'))
    await waitFor(() => expect(queries(api, '/api/nft/usersnftartwork/u3')).toEqual([{ limit: '9', formOfSale: 'ALL', sortBy: 'DATE', orderBy: '0', page: '1' }]))
    expect(queries(api, '/api/nft/profilecounts/u3')).toHaveLength(1)
  })

  it('the trending seller page opens the user on In Sale with a way back to the list', async () => {
    const api = stubApi([
      { path: '/api/account/getuserprofile/u2', body: other },
      { path: '/api/nft/profilecounts/u2', body: counts },
      { path: '/api/nft/usersnftartwork/u2', body: page([nft('n1', 'For sale piece')]) },
    ])
    renderPage(<UserProfilePage defaultTab="inSale" backTo="/trending-sellers" />, { path: '/trending-sellers/:id', at: '/trending-sellers/u2' })
    expect(await screen.findByText('For sale piece')).toBeInTheDocument()
    expect(queries(api, '/api/nft/usersnftartwork/u2')[0].formOfSale).toBe('FIXEDPRICE')
    expect(screen.getByRole('link', { name: /Back to the list/ })).toHaveAttribute('href', '/trending-sellers')
  })
})
