import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { FALLBACK_CONFIG, useConfigStore } from '@/lib/app-config'
import { useSession } from '@/lib/auth'
import type { Nft } from '@/lib/nft/types'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { MyBidsPage } from './my-bids-page'

const person = { userId: 'u2', username: 'trin', fullName: 'Trinity', avatar: '' }
const nft = (id: string, title: string): Nft => ({
  _id: id, nftTokenId: id.split('-')[1], file: '/ipfs/bafyimage', title, description: '', nftCategory: 'art', metadataUrl: '',
  fixedPrice: '2', formOfSale: 'AUCTION', contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3', contractType: 'ERC721', coinName: 'MATIC',
  totalLikes: 0, isLiked: false, isBookmarked: false, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
  currentAuction: { auctionId: '1', auctionStartPrice: '1', auctionBuyNowPrice: '2', auctionHighestBid: '1.2', auctionEndHours: new Date(Date.now() + 3_600_000).toISOString(), auctionEnded: false },
  highestBid: '1.2', royalty: [], properties: [], transactionHash: '0x',
  creator: { ...person, address: '0x1' }, currentOwner: { ...person, ownerAddress: '0x1' },
})
const hash = (n: number) => `0x${String(n).repeat(64)}`
const bids = [
  { id: 3, nftData: nft('80001-3', 'Standing bid'), bidAmount: '1.2', status: 'BID', transactionHash: hash(3), auctionId: '1', auctionHighestBid: '1.2' },
  { id: 2, nftData: nft('80001-2', 'Won auction'), bidAmount: '5', status: 'ALLOTED', transactionHash: hash(2), auctionId: '1', auctionHighestBid: '5' },
  { id: 1, nftData: nft('80001-1', 'Outbid'), bidAmount: '0.5', status: 'REFUNDED', transactionHash: hash(1), auctionId: '1', auctionHighestBid: '1.2' },
]

function signedIn() {
  useSession.setState({ token: 'tok', user: null, userFresh: false })
}

describe('my bids', () => {
  afterEach(() => {
    useSession.setState({ token: undefined, user: null, userFresh: false })
    useConfigStore.setState({ config: null })
    vi.restoreAllMocks()
    vi.unstubAllGlobals()
  })

  it('lists the bids with their status badges linking to the transaction on the explorer', async () => {
    signedIn()
    useConfigStore.setState({ config: { ...FALLBACK_CONFIG, explorerUrl: 'https://explorer.example/' } })
    const fetchMock = stubApi([{ path: '/api/nft/mybids', body: { data: bids, currentPage: 1, lastPage: true, totalItems: 3 } }])
    renderPage(<MyBidsPage />, { path: '/mybids', at: '/mybids' })
    expect(screen.getAllByTestId('card-skeleton')).toHaveLength(6)

    const cards = await screen.findAllByTestId('nft-card')
    expect(cards.map((c) => within(c).getAllByRole('link')[0].getAttribute('aria-label'))).toEqual([
      'Standing bid',
      'Won auction',
      'Outbid',
    ])
    const badges = screen.getAllByTestId('bid-status')
    expect(badges.map((b) => [b.textContent, b.getAttribute('data-status')])).toEqual([
      ['BID', 'BID'],
      ['ALLOTED', 'ALLOTED'],
      ['REFUNDED', 'REFUNDED'],
    ])
    // BID blue, ALLOTED green, REFUNDED a calm grey (no error red for money returned).
    expect(badges.map((b) => b.getAttribute('data-palette'))).toEqual(['blue', 'green', 'gray'])
    // The outbid row shows the top bid beside the caller's and offers a raise on the live auction.
    expect(within(cards[2]).getByTestId('my-bid-top')).toHaveTextContent('Top bid1.200 MATIC')
    expect(within(cards[2]).getByTestId('raise-bid')).toHaveAttribute('href', '/auction/80001-1?bid=1')
    expect(within(cards[1]).queryByTestId('raise-bid')).not.toBeInTheDocument()
    expect(within(cards[0]).queryByTestId('my-bid-top')).not.toBeInTheDocument()
    expect(badges.map((b) => b.closest('a')?.getAttribute('href'))).toEqual([
      `https://explorer.example/tx/${hash(3)}`,
      `https://explorer.example/tx/${hash(2)}`,
      `https://explorer.example/tx/${hash(1)}`,
    ])
    expect(within(cards[1]).getByText(/^5.000 MATIC/)).toBeInTheDocument()
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/nft/mybids?limit=10&page=1')
  })

  it('shows plain badges when no explorer is configured', async () => {
    signedIn()
    stubApi([{ path: '/api/nft/mybids', body: { data: bids.slice(0, 1), currentPage: 1, lastPage: true, totalItems: 1 } }])
    renderPage(<MyBidsPage />, { path: '/mybids', at: '/mybids' })
    const badge = await screen.findByTestId('bid-status')
    expect(badge.closest('a')).toBeNull()
  })

  it("says 'NO NFT' when there is no bid, and when the list cannot be loaded (the failure only logged)", async () => {
    signedIn()
    stubApi([{ path: '/api/nft/mybids', body: { data: [], currentPage: 1, lastPage: true, totalItems: 0 } }])
    const first = renderPage(<MyBidsPage />, { path: '/mybids', at: '/mybids' })
    expect(await screen.findByText('NO NFT')).toBeInTheDocument()
    first.unmount()

    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    stubApi([{ path: '/api/nft/mybids', status: 500, message: 'Internal error' }])
    renderPage(<MyBidsPage />, { path: '/mybids', at: '/mybids' })
    expect(await screen.findByText('NO NFT')).toBeInTheDocument()
    await waitFor(() => expect(log).toHaveBeenCalledWith('Could not load my bids', expect.anything()))
    expect(screen.queryByTestId('snackbar')).not.toBeInTheDocument()
  })
})
