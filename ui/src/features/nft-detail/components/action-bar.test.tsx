import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useSession } from '@/lib/auth'
import { useWalletConnection } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { stubApi } from '@/testing/fetch'
import { auctionFixture, BUYER_ADDRESS, nftFixture, OWNER_ADDRESS, page, profileFixture } from '@/testing/nft'
import { LocationProbe, renderRoutes } from '@/testing/render'
import type { Nft } from '@/lib/nft/types'
import { NftDetailPage } from './nft-detail-page'

const routes = [
  { path: '/explore/:id', element: <NftDetailPage /> },
  { path: '/auction/:id', element: <NftDetailPage /> },
  { path: '*', element: <LocationProbe /> },
]

function serve(nft: Nft) {
  stubApi([
    { path: `/api/nft/detail/${nft._id}`, body: nft },
    { path: /\/api\/nft\/bidhistory\//, body: page([]) },
    { path: `/api/nft/nfthistory/${nft._id}`, body: { data: [] } },
  ])
}

/** A phone or a desktop, as the page's media query sees it. */
function screenWidth(px: number) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query === '(max-width: 63.98rem)' && px < 1024,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
        addListener: () => {},
        removeListener: () => {},
      }) as unknown as MediaQueryList,
  )
}

describe('the NFT page on a phone', () => {
  beforeEach(() => screenWidth(390))
  afterEach(() => {
    vi.restoreAllMocks()
    useSession.setState({ token: undefined, user: null })
    useWalletConnection.setState({ status: 'disconnected', address: undefined })
    useWalletStore.setState({ dialogOpen: false, wantedAddress: null })
  })

  it('keeps the price and Buy now in a bar at the bottom; a visitor is sent to sign in', async () => {
    serve(nftFixture())
    renderRoutes(routes, '/explore/80001-1')
    const bar = await screen.findByTestId('action-bar')
    expect(within(bar).getByTestId('action-bar-price')).toHaveTextContent('1.500 MATIC')
    await userEvent.click(within(bar).getByRole('button', { name: 'Buy now' }))
    expect(await screen.findByTestId('location')).toHaveTextContent('/authentication/sign-in')
  })

  it('offers Bid and Buy now on a live auction, with the highest bid', async () => {
    serve(auctionFixture())
    renderRoutes(routes, '/auction/80001-1')
    const bar = await screen.findByTestId('action-bar')
    expect(bar).toHaveTextContent('Highest bid')
    expect(within(bar).getByTestId('action-bar-price')).toHaveTextContent('1.200 MATIC')
    expect(within(bar).getByRole('button', { name: 'Bid' })).toBeInTheDocument()
    expect(within(bar).getByRole('button', { name: 'Buy now' })).toBeInTheDocument()
  })

  it("gives the owner their actions: Update and Burn (behind the confirmation) when not for sale", async () => {
    useSession.setState({ token: 'tok', user: profileFixture() })
    serve(nftFixture({ formOfSale: 'NOT_FOR_SALE' }))
    renderRoutes(routes, '/explore/80001-1')
    const bar = await screen.findByTestId('action-bar')
    expect(within(bar).getByRole('button', { name: 'Update NFT' })).toBeInTheDocument()
    await userEvent.click(within(bar).getByRole('button', { name: 'Burn NFT' }))
    expect(await screen.findByTestId('confirm-dialog', {}, { timeout: 4000 })).toHaveTextContent('Please confirm')
  })

  it('offers a visitor "Make offer" on an NFT not for sale; no bar when there is nothing to do, nor on a desktop', async () => {
    serve(nftFixture({ formOfSale: 'NOT_FOR_SALE' }))
    const notForSale = renderRoutes(routes, '/explore/80001-1')
    expect(await screen.findByTestId('action-bar-offer')).toHaveTextContent('Make offer')
    notForSale.unmount()

    serve(auctionFixture(-1000))
    const first = renderRoutes(routes, '/auction/80001-1')
    await screen.findByTestId('trade-panel')
    expect(screen.queryByTestId('action-bar')).toBeNull()
    first.unmount()

    screenWidth(1440)
    serve(nftFixture())
    renderRoutes(routes, '/explore/80001-1')
    await screen.findByTestId('buy-now')
    expect(screen.queryByTestId('action-bar')).toBeNull()
  })
})

describe("the owner's wallet on the NFT page", () => {
  afterEach(() => {
    useSession.setState({ token: undefined, user: null })
    useWalletConnection.setState({ status: 'disconnected', address: undefined })
    useWalletStore.setState({ dialogOpen: false, wantedAddress: null })
  })

  it('names the wallet holding the NFT when another one is connected, before any form', async () => {
    useSession.setState({ token: 'tok', user: profileFixture() })
    useWalletConnection.setState({ status: 'connected', address: BUYER_ADDRESS, chainId: 80001 })
    serve(nftFixture({ formOfSale: 'NOT_FOR_SALE' }))
    renderRoutes(routes, '/explore/80001-1')
    const notice = await screen.findByTestId('owner-wallet-notice')
    expect(notice).toHaveTextContent(`Actions on your NFT need the wallet that holds it: ${OWNER_ADDRESS}`)
    expect(within(notice).getByRole('button', { name: 'Switch wallet' })).toBeInTheDocument()
  })

  it('opens the wallet dialog offering that address when no wallet is connected', async () => {
    useSession.setState({ token: 'tok', user: profileFixture() })
    serve(nftFixture({ formOfSale: 'NOT_FOR_SALE' }))
    renderRoutes(routes, '/explore/80001-1')
    const notice = await screen.findByTestId('owner-wallet-notice')
    await userEvent.click(within(notice).getByRole('button', { name: 'Connect wallet' }))
    await waitFor(() => expect(useWalletStore.getState()).toMatchObject({ dialogOpen: true, wantedAddress: OWNER_ADDRESS.toLowerCase() }))
  })

  it("says nothing when the owner's wallet is the connected one, or to a non-owner", async () => {
    useSession.setState({ token: 'tok', user: profileFixture() })
    useWalletConnection.setState({ status: 'connected', address: OWNER_ADDRESS, chainId: 80001 })
    serve(nftFixture({ formOfSale: 'NOT_FOR_SALE' }))
    const first = renderRoutes(routes, '/explore/80001-1')
    await screen.findByTestId('owner-message')
    expect(screen.queryByTestId('owner-wallet-notice')).toBeNull()
    first.unmount()

    useSession.setState({ token: 'tok', user: profileFixture({ userId: 'u-buyer' }) })
    useWalletConnection.setState({ status: 'connected', address: BUYER_ADDRESS, chainId: 80001 })
    serve(nftFixture())
    renderRoutes(routes, '/explore/80001-1')
    await screen.findByTestId('buy-now')
    expect(screen.queryByTestId('owner-wallet-notice')).toBeNull()
  })
})
