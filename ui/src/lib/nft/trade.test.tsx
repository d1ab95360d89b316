import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { UserRejectedRequestError, getAddress } from 'viem'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BUYER_ADDRESS, nftFixture, OWNER_ADDRESS, profileFixture } from '@/testing/nft'

const chain = vi.hoisted(() => ({
  simulateContract: vi.fn(),
  writeContract: vi.fn(),
  waitForTransactionReceipt: vi.fn(),
}))
const notify = vi.hoisted(() => vi.fn())
// The chain runtime (wagmi's configuration) is not what these tests are about: transactions go to the mocked actions.
vi.mock('@/lib/chain-runtime', () => ({ startChainRuntime: async () => ({ config: {} }) }))
vi.mock('@wagmi/core/actions', () => chain)
vi.mock('@/components/ui/toaster', async (importOriginal) => ({ ...(await importOriginal<typeof import('@/components/ui/toaster')>()), notify }))

// The suite shares one module graph per worker (isolate: false): other files may have loaded the
// trade modules with the real wagmi actions already, so load fresh ones that see the mocks above, and the
// stores they use from the same fresh graph.
vi.resetModules()
const { useNftActions } = await import('./actions')
const { SWRConfig } = await import('swr')
const { useSession } = await import('@/lib/auth')
const { useBusyStore } = await import('@/lib/busy-store')
const { registerNavigator } = await import('@/lib/navigation')
const { useWalletStore } = await import('@/lib/wallet-store')
const { useWalletConnection } = await import('@/lib/wallet-connection')
const setConnection = (connection: { address: `0x${string}` | undefined; chainId: number | undefined; status: 'connected' | 'disconnected' }) => useWalletConnection.setState(connection)

const wrapper = ({ children }: { children: ReactNode }) => <SWRConfig value={{ provider: () => new Map() }}>{children}</SWRConfig>
const HASH = `0x${'ab'.repeat(32)}`

function signInAs(address: string, linked = [address]) {
  useSession.setState({ token: 'tok', user: profileFixture({ connectedWallet: linked.map((walletAddress) => ({ walletProvider: 'Other', walletAddress })) }) })
  useWalletStore.setState({ walletType: 'Other', walletAddress: address, connectorId: 'devWallet' })
  setConnection({ address: address as `0x${string}`, chainId: 80001, status: 'connected' })
}

describe('trade actions', () => {
  let navigations: string[]
  let fetchMock: ReturnType<typeof vi.fn>
  beforeEach(() => {
    navigations = []
    registerNavigator((to) => navigations.push(to))
    fetchMock = vi.fn(async () => new Response(JSON.stringify({ statuscode: 200, body: {}, message: 'ok' }), { status: 200 }))
    vi.stubGlobal('fetch', fetchMock)
    chain.simulateContract.mockImplementation(async (_config, parameters) => ({ request: parameters }))
    chain.writeContract.mockResolvedValue(HASH)
    chain.waitForTransactionReceipt.mockResolvedValue({ status: 'success', transactionHash: HASH })
  })
  afterEach(() => {
    useSession.setState({ token: undefined, user: null })
    useWalletStore.setState({ walletType: null, walletAddress: null, connectorId: null, dialogOpen: false })
    useBusyStore.setState({ message: null })
    setConnection({ address: undefined, chainId: 80001, status: 'disconnected' })
    registerNavigator(null)
    vi.unstubAllGlobals()
    vi.clearAllMocks()
  })

  it('sends a visitor to sign-in with the current path and touches neither wallet nor server', async () => {
    window.history.pushState({}, '', '/explore/80001-1')
    const { result } = renderHook(() => useNftActions(nftFixture()), { wrapper })
    await act(async () => void (await result.current.buy()))
    expect(navigations).toEqual(['/authentication/sign-in?callbackURL=%2Fexplore%2F80001-1'])
    expect(chain.writeContract).not.toHaveBeenCalled()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('opens the wallet dialog when signed in without a connected wallet', async () => {
    useSession.setState({ token: 'tok', user: profileFixture() })
    const { result } = renderHook(() => useNftActions(nftFixture()), { wrapper })
    await act(async () => void (await result.current.buy()))
    expect(useWalletStore.getState().dialogOpen).toBe(true)
    expect(chain.writeContract).not.toHaveBeenCalled()
  })

  it('refuses another network before anything is signed', async () => {
    signInAs(BUYER_ADDRESS)
    useWalletConnection.setState({ chainId: 1 })
    const { result } = renderHook(() => useNftActions(nftFixture()), { wrapper })
    await act(async () => void (await result.current.buy()))
    expect(notify).toHaveBeenCalledWith('error', 'You are connected to a different network.')
    expect(chain.writeContract).not.toHaveBeenCalled()
  })

  it("refuses an owner action from a wallet other than the owner's, naming the owner's address", async () => {
    signInAs(BUYER_ADDRESS)
    const { result } = renderHook(() => useNftActions(nftFixture({ formOfSale: 'NOT_FOR_SALE' })), { wrapper })
    await act(async () => void (await result.current.burn()))
    // The address as wallets show it (EIP-55), whatever case the API sent.
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', `You are connected to a different wallet. This needs ${getAddress(OWNER_ADDRESS)}.`))
    expect(chain.writeContract).not.toHaveBeenCalled()
  })

  it("opens the wallet dialog offering the owner's address for an owner action without a wallet", async () => {
    useSession.setState({ token: 'tok', user: profileFixture() })
    const { result } = renderHook(() => useNftActions(nftFixture({ formOfSale: 'NOT_FOR_SALE' })), { wrapper })
    await act(async () => void (await result.current.burn()))
    expect(useWalletStore.getState()).toMatchObject({ dialogOpen: true, wantedAddress: OWNER_ADDRESS.toLowerCase() })
  })

  it('buys with the exact price, waits for 1 confirmation, then records the purchase', async () => {
    signInAs(BUYER_ADDRESS)
    const messages: (string | null)[] = []
    const unsubscribe = useBusyStore.subscribe((s) => messages.push(s.message))
    const { result } = renderHook(() => useNftActions(nftFixture()), { wrapper })
    await act(async () => void (await result.current.buy()))
    unsubscribe()
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({ functionName: 'buyToken', args: [1n], value: 1500000000000000000n, chainId: 80001 })
    expect(chain.waitForTransactionReceipt.mock.calls[0][1]).toMatchObject({ hash: HASH, confirmations: 1 })
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/nft/fixedsale/purchase')
    expect(init.method).toBe('POST')
    expect(JSON.parse(init.body as string)).toEqual({ formOfSale: 'FIXEDPRICE', nftid: '80001-1', saleQuantity: 1, transactionHash: HASH })
    expect(messages).toEqual(['Buying NFT!', 'Almose there!', null])
    expect(notify).toHaveBeenCalledWith('success', 'Congratulations!!! You are now the owner of this NFT.', undefined)
  })

  it('shows the wallet error of a rejected signature and records nothing', async () => {
    signInAs(BUYER_ADDRESS)
    chain.writeContract.mockRejectedValue(new UserRejectedRequestError(new Error('denied')))
    const { result } = renderHook(() => useNftActions(nftFixture()), { wrapper })
    let outcome: unknown
    await act(async () => void (outcome = await result.current.buy()))
    expect(outcome).toEqual({ ok: false, stage: 'chain' })
    expect(notify).toHaveBeenCalledWith('error', 'You cancelled the transaction in your wallet.', { duration: Infinity, detail: undefined })
    expect(fetchMock).not.toHaveBeenCalled()
    expect(useBusyStore.getState().message).toBeNull()
  })

  it('stops a sale with toggleForSale to not-for-sale and PUT /api/nft/stopsale/{id}', async () => {
    signInAs(OWNER_ADDRESS)
    const { result } = renderHook(() => useNftActions(nftFixture()), { wrapper })
    await act(async () => void (await result.current.stopSale()))
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({ functionName: 'toggleForSale', args: [1n, 0, 0n, 0n, 0n] })
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit]
    expect([url, init.method, JSON.parse(init.body as string)]).toEqual(['/api/nft/stopsale/80001-1', 'PUT', { transactionHash: HASH }])
    expect(notify).toHaveBeenCalledWith('success', 'Sale Stopped!', undefined)
  })

  it("says 'Burning NFT failed!' when the server refuses the burn record", async () => {
    signInAs(OWNER_ADDRESS)
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ statuscode: 400, body: null, message: 'nope' }), { status: 400 }))
    const { result } = renderHook(() => useNftActions(nftFixture({ formOfSale: 'NOT_FOR_SALE' })), { wrapper })
    await act(async () => void (await result.current.burn()))
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[1].method).toBe('DELETE')
    expect(notify).toHaveBeenCalledWith('error', 'Burning NFT failed!', Infinity)
  })

  it('bids the typed amount in wei and records it', async () => {
    signInAs(BUYER_ADDRESS)
    const { result } = renderHook(() => useNftActions(nftFixture({ formOfSale: 'AUCTION' }), { onDetailPage: true }), { wrapper })
    await act(async () => void (await result.current.bid('0.25')))
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({ functionName: 'bid', value: 250000000000000000n })
    expect(JSON.parse((fetchMock.mock.calls[0] as [string, RequestInit])[1].body as string)).toEqual({ formOfSale: 'AUCTION', nftid: '80001-1', bidAmount: '0.25', transactionHash: HASH })
    expect(notify).toHaveBeenCalledWith('success', 'Successfully bidded for the token', 6000)
  })

  it('accepts the top bid with acceptOffer and, with no record call, waits until the detail shows the new owner', async () => {
    signInAs(OWNER_ADDRESS)
    const sold = nftFixture({ formOfSale: 'NOT_FOR_SALE', currentOwner: { userId: 'u-c', username: 'c', fullName: 'C', avatar: '', ownerAddress: BUYER_ADDRESS } })
    let reads = 0
    fetchMock.mockImplementation(async () => {
      reads += 1
      // The indexer needs a moment: the first read still shows the auction.
      const body = reads === 1 ? nftFixture({ formOfSale: 'AUCTION' }) : sold
      return new Response(JSON.stringify({ statuscode: 200, body, message: '' }), { status: 200 })
    })
    const { result } = renderHook(() => useNftActions(nftFixture({ formOfSale: 'AUCTION' })), { wrapper })
    await act(async () => void (await result.current.answerOffer(true)))
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({ functionName: 'acceptOffer', args: [1n, true] })
    expect(fetchMock.mock.calls.slice(0, 2).map(([url]) => url)).toEqual(['/api/nft/detail/80001-1', '/api/nft/detail/80001-1'])
    expect(notify).toHaveBeenCalledWith('success', 'Bid Accepted!', undefined)
  })
})
