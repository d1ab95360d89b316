import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { callBody, stubApi } from '@/testing/fetch'
import { BUYER_ADDRESS, nftFixture, OWNER_ADDRESS, profileFixture } from '@/testing/nft'

const chain = vi.hoisted(() => ({ simulateContract: vi.fn(), writeContract: vi.fn(), waitForTransactionReceipt: vi.fn() }))
const notify = vi.hoisted(() => vi.fn())
vi.mock('@/lib/chain-runtime', () => ({ startChainRuntime: async () => ({ config: {} }) }))
vi.mock('@wagmi/core/actions', () => chain)
vi.mock('@/components/ui/toaster', async (importOriginal) => ({ ...(await importOriginal<typeof import('@/components/ui/toaster')>()), notify }))

// A fresh module graph that sees the mocks (see lib/nft/trade.test.tsx).
vi.resetModules()
const { CartDrawer } = await import('./cart-drawer')
const { CartButton } = await import('./cart-button')
const { NftCard } = await import('@/components/nft/nft-card')
const { useCartStore } = await import('@/lib/cart/store')
const { renderPage } = await import('@/testing/render')
const { useSession } = await import('@/lib/auth')
const { useWalletStore } = await import('@/lib/wallet-store')
const { useWalletConnection } = await import('@/lib/wallet-connection')

const HASH = `0x${'ab'.repeat(32)}`
const SELLER = { userId: 'u-seller', username: 'seller', fullName: 'Seller', avatar: '', ownerAddress: OWNER_ADDRESS }
const wei = (matic: number) => BigInt(Math.round(matic * 1000)) * 10n ** 15n
const fixed = (id: number, title: string, price: number) =>
  nftFixture({ _id: `80001-${id}`, nftTokenId: String(id), title, fixedPrice: String(price), fixedPriceWei: wei(price).toString(), currentOwner: SELLER })

function signInAsBuyer() {
  useSession.setState({ token: 'tok', user: profileFixture({ userId: 'u-buyer', username: 'buyer', connectedWallet: [{ walletProvider: 'Other', walletAddress: BUYER_ADDRESS }] }) })
  useWalletStore.setState({ walletType: 'Other', walletAddress: BUYER_ADDRESS, connectorId: 'devWallet' })
  useWalletConnection.setState({ address: BUYER_ADDRESS as `0x${string}`, chainId: 80001, status: 'connected' })
}

describe('the cart', () => {
  beforeEach(() => {
    chain.simulateContract.mockImplementation(async (_config, parameters) => ({ request: parameters }))
    chain.writeContract.mockResolvedValue(HASH)
    chain.waitForTransactionReceipt.mockResolvedValue({ status: 'success', transactionHash: HASH })
  })
  afterEach(() => {
    useCartStore.setState({ items: [], open: false })
    useSession.setState({ token: undefined, user: null })
    useWalletStore.setState({ walletType: null, walletAddress: null, connectorId: null, dialogOpen: false })
    useWalletConnection.setState({ address: undefined, status: 'disconnected' })
    vi.unstubAllGlobals()
    vi.clearAllMocks()
  })

  it("adds a fixed-price card to the cart and counts it on the top bar's icon; not one's own NFTs, nor auctions or unlisted ones", async () => {
    signInAsBuyer()
    stubApi([])
    const mine = nftFixture({ _id: '80001-5', title: 'Mine', currentOwner: { ...SELLER, userId: 'u-buyer', ownerAddress: BUYER_ADDRESS } })
    renderPage(
      <>
        <CartButton />
        <NftCard nft={fixed(1, 'Harbour', 0.25)} />
        <NftCard nft={mine} />
        <NftCard nft={{ ...fixed(2, 'Unlisted', 1), formOfSale: 'NOT_FOR_SALE' }} />
      </>,
    )
    const cards = await screen.findAllByTestId('nft-card')
    expect(within(cards[1]).queryByTestId('card-add-to-cart')).toBeNull()
    expect(within(cards[2]).queryByTestId('card-add-to-cart')).toBeNull()
    expect(screen.queryByTestId('cart-count')).toBeNull()
    fireEvent.click(within(cards[0]).getByRole('button', { name: 'Add to cart' }))
    expect(await screen.findByTestId('cart-count')).toHaveTextContent('1')
    expect(useCartStore.getState().items.map((i) => i.nftId)).toEqual(['80001-1'])
    fireEvent.click(within(cards[0]).getByRole('button', { name: 'Remove from cart' }))
    await waitFor(() => expect(screen.queryByTestId('cart-count')).toBeNull())
  })

  it('shows each item as it is now, totals what can be bought, buys it in one buyTokens transaction and names what was skipped', async () => {
    signInAsBuyer()
    for (const nft of [fixed(1, 'Harbour', 0.25), fixed(2, 'Lantern', 0.25), fixed(3, 'Quay', 0.25)]) useCartStore.getState().add(nft)
    useCartStore.setState({ open: true })
    const api = stubApi([
      { path: '/api/nft/detail/80001-1', body: fixed(1, 'Harbour', 0.25) },
      // Sold meanwhile: not for sale any more.
      { path: '/api/nft/detail/80001-2', body: { ...fixed(2, 'Lantern', 0.25), formOfSale: 'NOT_FOR_SALE' } },
      // Repriced since it was added: the drawer shows (and sends) the price now.
      { path: '/api/nft/detail/80001-3', body: fixed(3, 'Quay', 0.5) },
      {
        method: 'POST',
        path: '/api/nft/cart/purchase',
        body: {
          bought: [{ nftId: '80001-1', price: '0.25', priceWei: wei(0.25).toString(), nftData: { ...fixed(1, 'Harbour', 0.25), formOfSale: 'NOT_FOR_SALE', currentOwner: { userId: 'u-buyer', username: 'buyer', ownerAddress: BUYER_ADDRESS } } }],
          skipped: [{ nftId: '80001-3', price: '0.6', priceWei: wei(0.6).toString(), seenPrice: '0.5', nftData: fixed(3, 'Quay', 0.6) }],
          spent: '0.25',
          refunded: '0.5',
        },
      },
    ])
    renderPage(<CartDrawer />)
    const drawer = await screen.findByTestId('cart-drawer')
    const item = async (id: string) => (await within(drawer).findAllByTestId('cart-item')).find((e) => e.dataset.nft === id)!
    await waitFor(async () => expect(await item('80001-2')).toHaveAttribute('data-unavailable', 'sold'))
    expect(await item('80001-2')).toHaveTextContent('No longer for sale')
    expect(await item('80001-3')).toHaveTextContent('The price changed since you added it')
    expect(within(drawer).getByTestId('cart-total')).toHaveTextContent('0.750 MATIC')
    fireEvent.click(within(drawer).getByRole('button', { name: 'Buy 2 NFTs' }))

    // One message: what was bought, and what was not with what came back.
    await waitFor(() => expect(notify).toHaveBeenCalledWith('warning', 'Congratulations!!! You now own 1 NFT: Harbour. Not bought: Quay; 0.500\u00a0MATIC went back to you.', 6000))
    expect(notify).toHaveBeenCalledTimes(1)
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({ functionName: 'buyTokens', args: [[1n, 3n], [wei(0.25), wei(0.5)]], value: wei(0.75) })
    const record = api.mock.calls.findIndex(([url]) => url === '/api/nft/cart/purchase')
    expect(callBody(api, record)).toEqual({ transactionHash: HASH })
    const result = await within(drawer).findByTestId('cart-result')
    expect(within(result).getByTestId('cart-bought')).toHaveTextContent('Harbour')
    expect(within(result).getByTestId('cart-bought-owner')).toHaveTextContent('Owner now: buyer')
    expect(within(result).getByTestId('cart-skipped')).toHaveTextContent('QuayIts price went up meanwhile')
    expect(useCartStore.getState().items.map((i) => i.nftId)).toEqual(['80001-2', '80001-3'])
  })

  it('says so when the cart is empty', async () => {
    useCartStore.setState({ open: true })
    stubApi([])
    renderPage(<CartDrawer />)
    expect(await screen.findByTestId('cart-empty')).toHaveTextContent('Your cart is empty.')
  })
})
