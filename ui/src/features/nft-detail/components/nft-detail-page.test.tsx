import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useSession } from '@/lib/auth'
import type { Nft } from '@/lib/nft/types'
import { stubApi } from '@/testing/fetch'
import { auctionFixture, BUYER_ADDRESS, nftFixture, page, profileFixture } from '@/testing/nft'
import { renderRoutes } from '@/testing/render'
import { NftDetailPage } from './nft-detail-page'

const routes = [
  { path: '/explore/:id', element: <NftDetailPage /> },
  { path: '/auction/:id', element: <NftDetailPage /> },
]

const metadataOf = (nft: Nft) => ({
  name: nft.title,
  description: nft.description,
  image: 'ipfs://bafyimage',
  attributes: nft.properties.map((p) => ({ trait_type: p.key, value: p.value })),
})

/** The detail, its auction, bids and history, and its metadata file (`metadata` null: 404). */
function serve(nft: Nft, { metadata = metadataOf(nft) as unknown, bids = [] as unknown[] } = {}) {
  const metadataRoute = metadata === null ? [] : [{ path: '/ipfs/bafymeta', body: metadata }]
  const api = stubApi([
    { path: `/api/nft/detail/${nft._id}`, body: nft },
    { path: `/api/nft/nftinauction/${nft._id}`, body: nft.currentAuction ? [nft.currentAuction] : [] },
    { path: /\/api\/nft\/bidhistory\//, body: page(bids) },
    { path: `/api/nft/nfthistory/${nft._id}`, body: { data: [] } },
    { method: 'PUT', path: `/api/nft/like/${nft._id}` },
    ...metadataRoute,
  ])
  // The metadata file is plain JSON, not the API's envelope.
  const envelope = api.getMockImplementation()!
  api.mockImplementation(async (input, init) => {
    if (String(input) === '/ipfs/bafymeta' && metadata !== null) return new Response(JSON.stringify(metadata), { status: 200 })
    return envelope(input, init)
  })
  return api
}

const signIn = (userId: string) =>
  useSession.setState({ token: 'tok', user: profileFixture({ userId, connectedWallet: [{ walletProvider: 'Other', walletAddress: BUYER_ADDRESS }] }) })

describe('NFT detail', () => {
  afterEach(() => {
    useSession.setState({ token: undefined, user: null })
    vi.unstubAllGlobals()
    document.head.querySelectorAll('meta[property^="og:"], meta[name^="twitter:"]').forEach((m) => m.remove())
  })

  it('shows the NFT: title, price, royalty sum, 5% fee, token id, properties, chips and social tags', async () => {
    serve(nftFixture())
    renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByTestId('detail-title')).toHaveTextContent('Sunset over the harbour')
    expect(screen.getByTestId('detail-price')).toHaveTextContent('1.500 MATIC')
    const details = screen.getByTestId('details')
    expect(details).toHaveTextContent('Royalty fee7.5%')
    expect(details).toHaveTextContent('Transaction fee5%')
    expect(details).toHaveTextContent('Token ID1')
    expect(details).toHaveTextContent('0x5FbD...0aa3')
    expect(screen.queryByTestId('explorer-link')).not.toBeInTheDocument()
    expect(screen.getByTestId('properties')).toHaveTextContent('ColorPink')
    expect(screen.getByTestId('created-ago')).toHaveTextContent('Created 2 hours ago')
    expect(document.title).toBe('Sunset over the harbour | NFT Marketplace')
    expect(document.head.querySelector('meta[property="og:title"]')).toHaveAttribute('content', 'Sunset over the harbour | NFT Marketplace')
    expect(document.head.querySelector('meta[name="twitter:image"]')?.getAttribute('content')).toMatch(/\/ipfs\/bafyimage$/)
  })

  it('cuts the description at 200 characters and shows the rest in the item details dialog', async () => {
    const long = `${'word '.repeat(50)}END`
    serve(nftFixture({ description: long }))
    renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByTestId('description')).toHaveTextContent(/\.\.\.$/)
    fireEvent.click(screen.getByRole('button', { name: 'Read more' }))
    const dialog = await screen.findByRole('dialog', {}, { timeout: 4000 })
    expect(within(dialog).getByText('Item details')).toBeInTheDocument()
    expect(within(dialog).getByText(/END$/)).toBeInTheDocument()
  })

  it('offers a visitor the buy button on a fixed-price NFT', async () => {
    serve(nftFixture())
    renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByTestId('buy-now')).toBeInTheDocument()
    expect(screen.queryByTestId('owner-message')).not.toBeInTheDocument()
  })

  it('tells a non-owner that an NFT not for sale cannot be bought', async () => {
    signIn('u-buyer')
    serve(nftFixture({ formOfSale: 'NOT_FOR_SALE' }))
    renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByTestId('not-for-sale-message')).toHaveTextContent(
      'This NFT item is not sale. So you cannot to do any purchase related actions.',
    )
    expect(screen.queryByTestId('buy-now')).not.toBeInTheDocument()
  })

  it('tells the owner they cannot buy, and offers Stop Sale while for sale', async () => {
    signIn('u-owner')
    serve(nftFixture())
    renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByTestId('owner-message')).toHaveTextContent(
      'You are the owner of this NFT. So you cannot to do any purchase related actions.',
    )
    expect(screen.getByRole('button', { name: 'Stop Sale' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Burn NFT' })).not.toBeInTheDocument()
    expect(screen.queryByTestId('buy-now')).not.toBeInTheDocument()
  })

  it('shows a stolen-item hold with its end, and disables what a buyer came for with the reason', async () => {
    signIn('u-buyer')
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString()
    // A page loaded before the hold reached the listing: Buy now is there, but disabled.
    serve(nftFixture({ saleHeldUntil: until, saleHoldEvidence: true }))
    const { unmount } = renderRoutes(routes, '/explore/80001-1')
    const notice = await screen.findByTestId('sale-held')
    expect(within(notice).getByTestId('sale-held-until')).toHaveTextContent(/^Sale on hold until .+/)
    expect(notice).toHaveTextContent('it was reported stolen')
    expect(notice).toHaveTextContent('The hold rests on a police report.')
    const buy = screen.getByTestId('buy-now')
    expect(buy).toBeDisabled()
    expect(buy.getAttribute('title')).toMatch(/^On hold until /)
    expect(screen.queryByRole('button', { name: 'Add to cart' })).not.toBeInTheDocument()
    unmount()

    // The usual case: the hold ended the listing; no offer can be made either.
    serve(nftFixture({ formOfSale: 'NOT_FOR_SALE', saleHeldUntil: until }))
    renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByTestId('held-offer')).toBeDisabled()
    expect(screen.getByTestId('sale-held')).not.toHaveTextContent('police report')
    expect(screen.queryByTestId('not-for-sale-message')).not.toBeInTheDocument()
  })

  it('tells the owner why their NFT is held and keeps listing disabled; an ended hold shows nothing', async () => {
    signIn('u-owner')
    const until = new Date(Date.now() + 86_400_000).toISOString()
    serve(nftFixture({ formOfSale: 'NOT_FOR_SALE', saleHeldUntil: until }))
    const { unmount } = renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByTestId('sale-held')).toHaveTextContent('You cannot list it or accept offers until then')
    expect(screen.getByTestId('owner-update')).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Burn NFT' })).toBeEnabled()
    unmount()

    serve(nftFixture({ formOfSale: 'NOT_FOR_SALE', saleHeldUntil: new Date(Date.now() - 1000).toISOString() }))
    renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByTestId('owner-update')).toBeEnabled()
    expect(screen.queryByTestId('sale-held')).not.toBeInTheDocument()
  })

  it('offers the owner Update and Burn when not for sale', async () => {
    signIn('u-owner')
    serve(nftFixture({ formOfSale: 'NOT_FOR_SALE' }))
    renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByRole('button', { name: 'Burn NFT' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Update NFT' })).toBeInTheDocument()
  })

  it('shows a live auction with base price, highest bid and a countdown ticking every second', async () => {
    serve(auctionFixture(3 * 86400_000 + 5000))
    renderRoutes(routes, '/auction/80001-1')
    expect(await screen.findByTestId('highest-bid')).toHaveTextContent('1.200 MATIC')
    expect(screen.getByTestId('countdown-days')).toHaveTextContent('03')
    const before = screen.getByTestId('countdown-seconds').textContent
    await waitFor(() => expect(screen.getByTestId('countdown-seconds').textContent).not.toBe(before), { timeout: 2500 })
    expect(screen.getByTestId('place-bid')).toBeInTheDocument()
  })

  it('says "No bids yet" on an auction nobody bid on, not a highest bid of 0', async () => {
    const fixture = auctionFixture(86400_000)
    serve({ ...fixture, highestBid: '0', currentAuction: { ...fixture.currentAuction!, auctionHighestBid: '0' } })
    renderRoutes(routes, '/auction/80001-1')
    expect(await screen.findByTestId('highest-bid')).toHaveTextContent('No bids yet')
  })

  it("shows 'Auction ended' and no actions once the auction is over", async () => {
    signIn('u-buyer')
    serve(auctionFixture(-1000))
    renderRoutes(routes, '/auction/80001-1')
    expect(await screen.findByTestId('auction-ended')).toHaveTextContent('Auction ended')
    expect(screen.queryByTestId('buy-now')).not.toBeInTheDocument()
    expect(screen.queryByTestId('place-bid')).not.toBeInTheDocument()
  })

  it('lists the bids with Accept and Reject on the top row for the owner, behind the confirmation', async () => {
    signIn('u-owner')
    const bidder = { userId: 'u-b', username: 'bob', fullName: 'Bob Bidder', avatar: '' }
    const api = serve(auctionFixture(), {
      bids: [
        { id: 2, bidAmount: '1.2', status: 'BID', createdAt: new Date().toISOString(), transactionHash: '0x2', bidder },
        { id: 1, bidAmount: '1', status: 'REFUNDED', createdAt: new Date().toISOString(), transactionHash: '0x1', bidder },
      ],
    })
    renderRoutes(routes, '/auction/80001-1')
    const rows = await screen.findAllByTestId('bid-row')
    expect(rows).toHaveLength(2)
    const bidCall = api.mock.calls.map(([url]) => String(url)).find((url) => url.startsWith('/api/nft/bidhistory/'))
    expect(bidCall).toBe('/api/nft/bidhistory/80001-1/7/?limit=10&page=1')
    expect(within(rows[0]).getByRole('button', { name: 'Accept' })).toBeInTheDocument()
    expect(within(rows[1]).queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument()
    fireEvent.click(within(rows[0]).getByRole('button', { name: 'Reject' }))
    expect(await screen.findByTestId('confirm-dialog', {}, { timeout: 4000 })).toHaveTextContent(
      'Please confirm that you want to reject the bid. After Confirmation you cannot undo the Action.',
    )
  })

  it("says 'No Data' in an empty tab", async () => {
    serve(nftFixture())
    renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByText('No Data')).toBeInTheDocument()
  })

  it('verifies matching metadata', async () => {
    serve(nftFixture())
    renderRoutes(routes, '/explore/80001-1')
    await waitFor(() => expect(screen.getByTestId('verification-icon')).toHaveAttribute('data-state', 'verified'))
    expect(screen.getByTestId('verification-icon')).toHaveAccessibleName('Metadata Verified!')
  })

  it('names the field that differs when the metadata does not match', async () => {
    const nft = nftFixture()
    serve(nft, { metadata: { ...metadataOf(nft), attributes: [{ trait_type: 'Color', value: 'Blue' }] } })
    renderRoutes(routes, '/explore/80001-1')
    await waitFor(() => expect(screen.getByTestId('verification-icon')).toHaveAttribute('data-state', 'unverified'))
    expect(screen.getByTestId('verification-icon')).toHaveAccessibleName('Metadata does not match: attributes differs.')
  })

  it('fails the verification when the metadata cannot be fetched', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    serve(nftFixture(), { metadata: null })
    renderRoutes(routes, '/explore/80001-1')
    await waitFor(() => expect(screen.getByTestId('verification-icon')).toHaveAttribute('data-state', 'failed'))
    expect(screen.getByTestId('verification-icon')).toHaveAccessibleName('Metadata Verification failed!')
  })

  it('flips the like after the server accepted it', async () => {
    signIn('u-buyer')
    const api = serve(nftFixture())
    renderRoutes(routes, '/explore/80001-1')
    const like = await screen.findByTestId('like-toggle')
    expect(like).toHaveTextContent('3 likes')
    fireEvent.click(like)
    await waitFor(() => expect(screen.getByTestId('like-toggle')).toHaveTextContent('4 likes'))
    expect(screen.getByTestId('like-toggle')).toHaveAttribute('aria-pressed', 'true')
    expect(api).toHaveBeenCalledWith('/api/nft/like/80001-1', expect.objectContaining({ method: 'PUT' }))
  })
})
