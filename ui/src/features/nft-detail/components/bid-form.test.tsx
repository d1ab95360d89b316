import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BUYER_ADDRESS, auctionFixture, page, profileFixture } from '@/testing/nft'

const minimumBid = vi.hoisted(() => vi.fn())
const chain = vi.hoisted(() => ({ simulateContract: vi.fn(), writeContract: vi.fn(), waitForTransactionReceipt: vi.fn() }))
// The chain: the contract's minimum bid is what these tests move; no transaction may be sent below it.
vi.mock('@/lib/chain-runtime', () => ({ startChainRuntime: async () => ({ config: {}, minimumBid, stop: async () => undefined }) }))
vi.mock('@wagmi/core/actions', () => chain)

// Fresh modules that see the mocks above (the suite shares one module graph per worker).
vi.resetModules()
const { NftDetailPage } = await import('./nft-detail-page')
const { renderRoutes } = await import('@/testing/render')
const { stubApi } = await import('@/testing/fetch')
const { useSession } = await import('@/lib/auth')
const { useConfigStore, FALLBACK_CONFIG } = await import('@/lib/app-config')
const { useWalletStore } = await import('@/lib/wallet-store')
const { useWalletConnection } = await import('@/lib/wallet-connection')
const { publishChange } = await import('@/lib/live/live-store')

const MATIC = 10n ** 18n
const nft = auctionFixture(3 * 86400_000)

function serve() {
  stubApi([
    { path: `/api/nft/detail/${nft._id}`, body: nft },
    { path: `/api/nft/nftinauction/${nft._id}`, body: [nft.currentAuction] },
    { path: /\/api\/nft\/bidhistory\//, body: page([]) },
    { path: `/api/nft/nfthistory/${nft._id}`, body: { data: [] } },
    { path: /\/offers/, body: page([]) },
  ])
}

async function openForm() {
  renderRoutes([{ path: '/auction/:id', element: <NftDetailPage /> }], `/auction/${nft._id}`)
  fireEvent.click(await screen.findByTestId('place-bid'))
  return screen.findByTestId('minimum-bid')
}

describe('the bid form in a moving market', () => {
  beforeEach(() => {
    useConfigStore.setState({ config: { ...FALLBACK_CONFIG, contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3' } })
    useSession.setState({ token: 'tok', user: profileFixture({ userId: 'buyer', connectedWallet: [{ walletProvider: 'Other', walletAddress: BUYER_ADDRESS }] }) })
    useWalletStore.setState({ walletType: 'Other', walletAddress: BUYER_ADDRESS, connectorId: 'devWallet' })
    useWalletConnection.setState({ address: BUYER_ADDRESS as `0x${string}`, chainId: 80001, status: 'connected' })
    serve()
  })
  afterEach(() => {
    useSession.setState({ token: undefined, user: null })
    useWalletStore.setState({ walletType: null, walletAddress: null, connectorId: null })
    useWalletConnection.setState({ address: undefined, status: 'disconnected' })
    useConfigStore.setState({ config: null })
    vi.unstubAllGlobals()
    vi.clearAllMocks()
  })

  it('shows the minimum rounded up, follows another person’s bid, and refuses a bid below it before any transaction', async () => {
    minimumBid.mockResolvedValue(282450000000000000n)
    const minimum = await openForm()
    await waitFor(() => expect(minimum).toHaveTextContent('Minimum bid: 0.283 MATIC'))

    // Someone else bids: the stream says the NFT changed, the contract's minimum is read again.
    minimumBid.mockResolvedValue(297150000000000000n)
    act(() => publishChange({ position: 9, nfts: [{ nftId: nft._id, position: 9 }], notices: [] }))
    await waitFor(() => expect(screen.getByTestId('minimum-bid')).toHaveTextContent('Someone bid meanwhile: the minimum bid is now 0.298 MATIC.'))
    expect(screen.getByTestId('minimum-bid')).toHaveAttribute('data-wei', '297150000000000000')

    // A bid the old minimum allowed is refused here, with the minimum in MATIC.
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Bid amount' }), { target: { value: '0.283' } })
    fireEvent.click(screen.getByRole('button', { name: 'Submit bid' }))
    expect(await screen.findByText('The bid must be at least 0.298 MATIC.')).toBeInTheDocument()
    expect(chain.simulateContract).not.toHaveBeenCalled()
  })

  it('reads the minimum again on submit: a rise nobody announced is caught before the wallet', async () => {
    minimumBid.mockResolvedValue(282450000000000000n)
    await openForm()
    await waitFor(() => expect(screen.getByTestId('minimum-bid')).toHaveTextContent('0.283 MATIC'))
    minimumBid.mockResolvedValue(3n * MATIC)
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Bid amount' }), { target: { value: '0.3' } })
    fireEvent.click(screen.getByRole('button', { name: 'Submit bid' }))
    expect(await screen.findByText('The bid must be at least 3.000 MATIC.')).toBeInTheDocument()
    expect(chain.simulateContract).not.toHaveBeenCalled()
  })

  it('refuses a bid at the buy-now price, and once the minimum reaches it, offers only buying', async () => {
    minimumBid.mockResolvedValue(282450000000000000n)
    await openForm()
    await waitFor(() => expect(screen.getByTestId('minimum-bid')).toHaveTextContent('0.283 MATIC'))
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Bid amount' }), { target: { value: '5' } })
    fireEvent.click(screen.getByRole('button', { name: 'Submit bid' }))
    expect(await screen.findByText('A bid must stay below the buy-now price (5.000 MATIC): buy it now instead.')).toBeInTheDocument()
    expect(chain.simulateContract).not.toHaveBeenCalled()

    // Bids raised the minimum to the buy-now price (5 MATIC): no bid can be placed any more.
    minimumBid.mockResolvedValue(5n * MATIC + 1n)
    act(() => publishChange({ position: 10, nfts: [{ nftId: nft._id, position: 10 }], notices: [] }))
    await waitFor(() =>
      expect(screen.getByTestId('minimum-bid')).toHaveTextContent('The minimum bid has reached the buy-now price: buy it now for 5.000 MATIC instead.'),
    )
    expect(screen.getByRole('button', { name: 'Submit bid' })).toBeDisabled()
    expect(screen.getByTestId('buy-now')).toBeEnabled()
  })
})
