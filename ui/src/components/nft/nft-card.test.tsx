import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useSession } from '@/lib/auth'
import { IMAGE_SIZES } from '@/lib/image-sources'
import { formatDate, formatDateTime } from '@/lib/format'
import { callBody, stubApi } from '@/testing/fetch'
import { auctionFixture, nftFixture, page, profileFixture } from '@/testing/nft'
import { renderPage } from '@/testing/render'
import { NftCard } from './nft-card'

const openMenu = async () => {
  fireEvent.click(screen.getByTestId('card-menu'))
  return screen.findByRole('menu')
}
/** Chooses a menu item with the keyboard (arrow down to it, Enter), as zag's menu expects. */
async function choose(item: HTMLElement) {
  const menu = item.closest('[role="menu"]') as HTMLElement
  for (let i = 0; i < 5 && !item.hasAttribute('data-highlighted'); i += 1) {
    fireEvent.keyDown(menu, { key: 'ArrowDown' })
    await new Promise((r) => setTimeout(r, 10))
  }
  fireEvent.keyDown(menu, { key: 'Enter' })
}
const menuItems = (menu: HTMLElement) => within(menu).getAllByRole('menuitem').map((item) => item.textContent)

describe('NFT card', () => {
  afterEach(() => {
    useSession.setState({ token: undefined, user: null })
    vi.unstubAllGlobals()
  })

  it('shows the cut title, the price, the chips with cut usernames, the age and the likes', () => {
    renderPage(<NftCard nft={nftFixture({ title: 'An extraordinarily long NFT title here' })} />)
    expect(screen.getByText('An extraordinarily long N...')).toBeInTheDocument()
    expect(screen.getByText('1.500 MATIC')).toBeInTheDocument()
    expect(screen.getAllByText('alice_t...')).toHaveLength(2)
    expect(screen.getByText('2 hours ago')).toBeInTheDocument()
    expect(screen.getByTestId('card-likes')).toHaveTextContent('3')
    expect(screen.getByRole('link', { name: 'An extraordinarily long NFT title here' })).toHaveAttribute('href', '/explore/80001-1')
  })

  it("loads the gateway's renditions sized for the card, lazily unless it is above the fold", () => {
    const cid = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'
    const { unmount } = renderPage(<NftCard nft={nftFixture({ file: `/ipfs/${cid}` })} />)
    const image = screen.getByRole('img', { name: 'Sunset over the harbour' })
    expect(image).toHaveAttribute('src', `/ipfs/${cid}?w=480`)
    expect(image.getAttribute('srcset')).toContain(`/ipfs/${cid}?w=240 240w`)
    expect(image).toHaveAttribute('sizes', IMAGE_SIZES.card)
    expect(image).toHaveAttribute('loading', 'lazy')
    unmount()

    renderPage(<NftCard nft={nftFixture({ file: `/ipfs/${cid}` })} eager />)
    expect(screen.getByRole('img', { name: 'Sunset over the harbour' })).toHaveAttribute('loading', 'eager')
    expect(screen.getByRole('img', { name: 'Sunset over the harbour' })).toHaveAttribute('fetchpriority', 'high')
  })

  it('shows a price the server sent as a number, and a dash for none', () => {
    const { unmount } = renderPage(<NftCard nft={nftFixture({ fixedPrice: 0.25 as unknown as string })} />)
    expect(screen.getByText('0.250 MATIC')).toBeInTheDocument()
    unmount()
    renderPage(<NftCard nft={nftFixture({ fixedPrice: '' })} />)
    expect(screen.getByTestId('card-no-price')).toHaveTextContent('No price yet')
  })

  it('shortens a long price to 6 characters (the full one in the tooltip)', () => {
    renderPage(<NftCard nft={nftFixture({ fixedPrice: '12345.678' })} />)
    expect(screen.getByText('12,346 MATIC')).toBeInTheDocument()
  })

  it('shows the top bid and buy-now price with a readable countdown for a live auction, linking to /auction/{id}', () => {
    const { unmount } = renderPage(<NftCard nft={auctionFixture(90_000)} />)
    expect(screen.getByText('Top bid')).toBeInTheDocument()
    expect(screen.getByText('1.200 MATIC')).toBeInTheDocument()
    expect(screen.getByText('5.000 MATIC')).toBeInTheDocument()
    expect(screen.getByTestId('card-countdown')).toHaveTextContent(/^1 min$/)
    expect(screen.getAllByRole('link')[0]).toHaveAttribute('href', '/auction/80001-1')
    unmount()

    // No bid yet: what a first bid must reach; in the last minute the seconds show.
    const noBid = auctionFixture(42_500)
    renderPage(<NftCard nft={{ ...noBid, currentAuction: { ...noBid.currentAuction!, auctionHighestBid: '0' } }} />)
    expect(screen.getByText('Minimum bid')).toBeInTheDocument()
    expect(screen.getByText('1.000 MATIC')).toBeInTheDocument()
    expect(screen.getByTestId('card-countdown')).toHaveTextContent(/^4[12] sec$/)
  })

  it("shows 'Auction ended' instead of prices once the auction ended", () => {
    renderPage(<NftCard nft={auctionFixture(-1000)} />)
    expect(screen.getByTestId('auction-ended')).toHaveTextContent('Auction ended')
    expect(screen.queryByText('Top bid')).not.toBeInTheDocument()
  })

  it('links the creator chip to /myprofile for the signed-in creator and /user/{id} otherwise', () => {
    useSession.setState({ token: 'tok', user: profileFixture({ userId: 'u-other' }) })
    renderPage(<NftCard nft={nftFixture({ currentOwner: { userId: 'u-other', username: 'me', fullName: 'Me', avatar: '' } })} />)
    const links = screen.getAllByTestId('person-link')
    expect(links[0]).toHaveAttribute('href', '/user/u-owner')
    expect(links[1]).toHaveAttribute('href', '/myprofile')
  })

  it('shows a deleted owner by the short address, not the deleted-… name, linking to their page', () => {
    renderPage(<NftCard nft={nftFixture({ currentOwner: { userId: 'u-gone', username: 'deleted-0123456789abcdefghijkl', fullName: '', avatar: '', ownerAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } })} />)
    const links = screen.getAllByTestId('person-link')
    expect(links[1]).toHaveAttribute('href', '/user/u-gone')
    expect(links[1]).toHaveTextContent('0x7099...79C8')
    expect(screen.queryByText(/deleted-/)).toBeNull()
  })

  it('shows a held NFT with a badge and the end of the hold instead of its price, and no cart button', () => {
    const until = new Date(Date.now() + 2 * 86_400_000).toISOString()
    const { unmount } = renderPage(<NftCard nft={nftFixture({ saleHeldUntil: until })} />)
    expect(screen.getByTestId('card-held')).toHaveTextContent('On hold')
    // The day on the card, kept in one piece (two lines at most on a phone), the hour in its title.
    expect(screen.getByTestId('card-held-until').textContent).toBe(`Sale on hold until ${formatDate(until, 'en').replace(/ /g, '\u00a0')}`)
    expect(screen.getByTestId('card-held-until')).toHaveAttribute('title', formatDateTime(until, 'en'))
    expect(screen.queryByText('1.500 MATIC')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /cart/i })).not.toBeInTheDocument()
    unmount()

    // A hold that has ended is no hold.
    renderPage(<NftCard nft={nftFixture({ saleHeldUntil: new Date(Date.now() - 1000).toISOString() })} />)
    expect(screen.queryByTestId('card-held')).not.toBeInTheDocument()
    expect(screen.getByText('1.500 MATIC')).toBeInTheDocument()
  })

  it('has no menu for someone who does not own the NFT', () => {
    renderPage(<NftCard nft={nftFixture()} />)
    expect(screen.queryByTestId('card-menu')).not.toBeInTheDocument()
  })

  it('offers the owner Stop Sale but no burn while for sale, and Update and Burn when not for sale', async () => {
    useSession.setState({ token: 'tok', user: profileFixture() })
    const { unmount } = renderPage(<NftCard nft={nftFixture()} />)
    expect(menuItems(await openMenu())).toEqual(['Add to collection', 'Stop Sale'])
    unmount()
    const second = renderPage(<NftCard nft={auctionFixture()} />)
    expect(menuItems(await openMenu())).toEqual(['Add to collection', 'Stop Auction'])
    second.unmount()
    renderPage(<NftCard nft={nftFixture({ formOfSale: 'NOT_FOR_SALE' })} />)
    expect(menuItems(await openMenu())).toEqual(['Add to collection', 'Update NFT', 'Burn NFT'])
  })

  it('shows only Remove from Collection in a collection view, and removes after confirmation', async () => {
    useSession.setState({ token: 'tok', user: profileFixture() })
    const api = stubApi([{ method: 'PUT', path: '/api/collection/nft/col1/80001-1', message: 'NFT removed from collection' }])
    const changed = vi.fn()
    renderPage(<NftCard nft={nftFixture()} collectionId="col1" onChanged={changed} />)
    const menu = await openMenu()
    expect(menuItems(menu)).toEqual(['Remove from Collection'])
    await choose(within(menu).getByRole('menuitem'))
    const dialog = await screen.findByTestId('confirm-dialog', {}, { timeout: 4000 })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(changed).toHaveBeenCalled())
    expect(api).toHaveBeenCalledWith('/api/collection/nft/col1/80001-1', expect.objectContaining({ method: 'PUT' }))
  })

  it('lists collections 9 a page until lastPage and adds the NFT with [{nftId}]', async () => {
    useSession.setState({ token: 'tok', user: profileFixture() })
    const first = Array.from({ length: 9 }, (_, i) => ({ _id: `c${i}`, title: `Collection ${i}`, image: '' }))
    const api = stubApi([
      { path: /\/api\/collection\?page=1&/, body: page(first, 1, false) },
      { path: /\/api\/collection\?page=2&/, body: page([{ _id: 'c9', title: 'Collection 9', image: '' }], 2, true) },
      { method: 'PUT', path: '/api/collection/nft/c9', message: 'NFT added to collection' },
    ])
    renderPage(<NftCard nft={nftFixture()} />)
    await choose(within(await openMenu()).getByRole('menuitem', { name: 'Add to collection' }))
    const dialog = await screen.findByTestId('add-to-collection-dialog', {}, { timeout: 4000 })
    await within(dialog).findByText('Collection 8', {}, { timeout: 4000 })
    expect(api.mock.calls[0][0]).toContain('limit=9')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show more' }))
    fireEvent.click(await within(dialog).findByText('Collection 9', {}, { timeout: 4000 }))
    await waitFor(() => expect(api.mock.calls.some(([url]) => url === '/api/collection/nft/c9')).toBe(true))
    const putIndex = api.mock.calls.findIndex(([url]) => url === '/api/collection/nft/c9')
    expect(callBody(api, putIndex)).toEqual([{ nftId: '80001-1' }])
    expect(within(dialog).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument()
  })
})
