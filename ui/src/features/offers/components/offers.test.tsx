import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Nft } from '@/lib/nft/types'
import { callBody, stubApi } from '@/testing/fetch'
import { BUYER_ADDRESS, nftFixture, OWNER_ADDRESS, page, profileFixture } from '@/testing/nft'
import { offerFixture } from '@/testing/offers'

const chain = vi.hoisted(() => ({ simulateContract: vi.fn(), writeContract: vi.fn(), waitForTransactionReceipt: vi.fn() }))
const notify = vi.hoisted(() => vi.fn())
vi.mock('@/lib/chain-runtime', () => ({ startChainRuntime: async () => ({ config: {} }) }))
vi.mock('@wagmi/core/actions', () => chain)
vi.mock('@/components/ui/toaster', async (importOriginal) => ({ ...(await importOriginal<typeof import('@/components/ui/toaster')>()), notify }))

// A fresh module graph that sees the mocks (the suite shares one per worker; see lib/nft/trade.test.tsx).
vi.resetModules()
const { OffersTab } = await import('./offers-tab')
const { MyOffersPage } = await import('./my-offers-page')
const { useOfferActions } = await import('@/lib/offers/actions')
const { renderPage } = await import('@/testing/render')
const { useSession } = await import('@/lib/auth')
const { useWalletStore } = await import('@/lib/wallet-store')
const { useWalletConnection } = await import('@/lib/wallet-connection')
const { publishChange } = await import('@/lib/live/live-store')

const HASH = `0x${'ab'.repeat(32)}`
const CAROL = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'
// Made when each test starts (a slow run must not move "tomorrow" to "in 23 hours").
let bob = offerFixture()
const expiredOffer = () => offerFixture({
  id: 2,
  offererAddress: CAROL,
  offererUserId: 'u-carol',
  offererUsername: 'carol',
  amount: '0.2',
  amountWei: '200000000000000000',
  state: 'EXPIRED',
  acceptable: false,
  expiresAt: new Date(Date.now() - 120_000).toISOString(),
})
let carolExpired = expiredOffer()

function signInAs(address: string, userId = 'u-owner') {
  useSession.setState({ token: 'tok', user: profileFixture({ userId, connectedWallet: [{ walletProvider: 'Other', walletAddress: address }] }) })
  useWalletStore.setState({ walletType: 'Other', walletAddress: address, connectorId: 'devWallet' })
  useWalletConnection.setState({ address: address as `0x${string}`, chainId: 80001, status: 'connected' })
}

function Tab({ nft, isOwner, me }: { nft: Nft; isOwner: boolean; me: string[] }) {
  const actions = useOfferActions({ onDetailPage: true })
  return <OffersTab nft={nft} isOwner={isOwner} myAddresses={me} actions={actions} />
}

const rowOf = async (name: string) => (await screen.findAllByTestId('offer-row')).find((r) => r.textContent?.includes(name))!

describe('offers', () => {
  beforeEach(() => {
    bob = offerFixture({ expiresAt: new Date(Date.now() + 30 * 3_600_000).toISOString() })
    carolExpired = expiredOffer()
    chain.simulateContract.mockImplementation(async (_config, parameters) => ({ request: parameters }))
    chain.writeContract.mockResolvedValue(HASH)
    chain.waitForTransactionReceipt.mockResolvedValue({ status: 'success', transactionHash: HASH })
  })
  afterEach(() => {
    useSession.setState({ token: undefined, user: null })
    useWalletStore.setState({ walletType: null, walletAddress: null, connectorId: null, dialogOpen: false })
    useWalletConnection.setState({ address: undefined, status: 'disconnected' })
    vi.unstubAllGlobals()
    vi.clearAllMocks()
  })

  it("lists an NFT's offers with amount, who, state and expiry; the owner accepts naming the amount and the net it was shown, after the spec's confirmation", async () => {
    signInAs(OWNER_ADDRESS)
    const api = stubApi([
      { path: '/api/nft/80001-1/offers', body: page([bob, carolExpired]) },
      { method: 'POST', path: '/api/nft/offer/accept', body: { offer: { ...bob, state: 'ACCEPTED' }, nftData: null } },
    ])
    renderPage(<Tab nft={nftFixture({ formOfSale: 'NOT_FOR_SALE' })} isOwner me={[OWNER_ADDRESS]} />)
    const bobRow = await rowOf('bob')
    expect(bobRow).toHaveTextContent('0.300 MATIC')
    expect(bobRow).toHaveTextContent('Active')
    expect(bobRow).toHaveTextContent('Expires tomorrow')
    const carolRow = await rowOf('carol')
    expect(carolRow).toHaveTextContent('Expired 2 minutes ago')
    // An expired offer cannot be accepted; the owner may still reject it (the offerer is refunded).
    expect(within(carolRow).queryByTestId('offer-accept')).toBeNull()
    expect(within(carolRow).getByTestId('offer-reject')).toBeInTheDocument()

    fireEvent.click(within(bobRow).getByTestId('offer-accept'))
    const dialog = await screen.findByTestId('confirm-dialog')
    expect(dialog).toHaveTextContent('Please confirm that you want to accept the offer of 0.300 MATIC from bob. After Confirmation you cannot undo the Action.')
    // The net it is shown is what the accept requires as minProceeds: 0.3 less the offer's 5% fee and
    // the NFT's 7.5% of royalties, each rounded down in wei as the contract does.
    expect(dialog).toHaveTextContent('You receive 0.262 MATIC after the 5% service fee and 7.5% royalties.')
    fireEvent.click(within(dialog).getByRole('button', { name: /^Accept 0\.300.MATIC$/ }))
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'Offer Accepted!', 6000))
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({ functionName: 'acceptOfferFrom', args: [1n, bob.offererAddress, 300000000000000000n, 262500000000000000n] })
    const record = api.mock.calls.findIndex(([url, init]) => url === '/api/nft/offer/accept' && (init as RequestInit).method === 'POST')
    expect(callBody(api, record)).toEqual({ nftid: '80001-1', offerer: bob.offererAddress, transactionHash: HASH })
  })

  it('rejects with rejectOfferFrom and records it', async () => {
    signInAs(OWNER_ADDRESS)
    const api = stubApi([
      { path: '/api/nft/80001-1/offers', body: page([bob]) },
      { method: 'POST', path: '/api/nft/offer/reject', body: { offer: null, nftData: null } },
    ])
    renderPage(<Tab nft={nftFixture()} isOwner me={[OWNER_ADDRESS]} />)
    fireEvent.click(within(await rowOf('bob')).getByTestId('offer-reject'))
    const dialog = await screen.findByTestId('confirm-dialog')
    expect(dialog).toHaveTextContent('Please confirm that you want to reject the offer of 0.300 MATIC from bob. After Confirmation you cannot undo the Action.')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }))
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'Offer Rejected!', 6000))
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({ functionName: 'rejectOfferFrom', args: [1n, bob.offererAddress] })
    const record = api.mock.calls.findIndex(([url]) => url === '/api/nft/offer/reject')
    expect(callBody(api, record)).toEqual({ nftid: '80001-1', offerer: bob.offererAddress, transactionHash: HASH })
  })

  it('lets an offerer withdraw an expired offer and says the money went back; others get no buttons', async () => {
    signInAs(CAROL, 'u-carol')
    const api = stubApi([
      { path: '/api/nft/80001-1/offers', body: page([bob, carolExpired]) },
      { method: 'POST', path: '/api/nft/offer/cancel', body: { offer: { ...carolExpired, state: 'CANCELLED', withdrawable: false }, nftData: null } },
    ])
    renderPage(<Tab nft={nftFixture({ formOfSale: 'NOT_FOR_SALE' })} isOwner={false} me={[CAROL]} />)
    const bobRow = await rowOf('bob')
    expect(within(bobRow).queryByRole('button')).toBeNull()
    const carolRow = await rowOf('carol')
    expect(carolRow).toHaveTextContent('(you)')
    fireEvent.click(within(carolRow).getByRole('button', { name: 'Withdraw' }))
    const dialog = await screen.findByTestId('confirm-dialog')
    expect(dialog).toHaveTextContent('withdraw your offer of 0.200 MATIC')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw offer' }))
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'Offer cancelled! 0.200\u00a0MATIC went back to your wallet.', 6000))
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({ functionName: 'cancelOffer', args: [1n] })
    const record = api.mock.calls.findIndex(([url]) => url === '/api/nft/offer/cancel')
    expect(callBody(api, record)).toEqual({ nftid: '80001-1', transactionHash: HASH })
  })

  it("says 'No Data' when an NFT has no offers", async () => {
    stubApi([{ path: '/api/nft/80001-1/offers', body: page([]) }])
    renderPage(<Tab nft={nftFixture()} isOwner={false} me={[]} />)
    expect(await screen.findByText('No Data')).toBeInTheDocument()
  })

  it("reloads an NFT's offers when the stream says the NFT changed, an empty list too, and not for another NFT", async () => {
    const api = stubApi([{ path: '/api/nft/80001-1/offers', body: page([]) }])
    renderPage(<Tab nft={nftFixture({ formOfSale: 'NOT_FOR_SALE' })} isOwner me={[OWNER_ADDRESS]} />)
    expect(await screen.findByTestId('offers-empty')).toBeInTheDocument()
    const offerCalls = () => api.mock.calls.filter(([url]) => String(url).startsWith('/api/nft/80001-1/offers')).length
    const before = offerCalls()
    // Another NFT's change: nothing to reload.
    act(() => publishChange({ position: 10, nfts: [{ nftId: '80001-2', position: 10 }], notices: [] }))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(offerCalls()).toBe(before)
    // Bob's offer is made on this one.
    stubApi([{ path: '/api/nft/80001-1/offers', body: page([bob]) }])
    act(() => publishChange({ position: 11, nfts: [{ nftId: '80001-1', position: 11 }], notices: [] }))
    expect(await rowOf('bob')).toHaveTextContent('0.300 MATIC')
  })

  it('/myoffers lists my offers by state with their NFT, and the offers received with accept and reject', async () => {
    signInAs(BUYER_ADDRESS, 'u-bob')
    const nft = nftFixture({ title: 'Lantern' })
    const api = stubApi([
      { path: '/api/myoffers', body: page([bob]) },
      { path: '/api/myoffers/received', body: page([{ ...carolExpired, state: 'ACTIVE', acceptable: true, expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString() }]) },
      { path: '/api/nft/detail/80001-1', body: nft },
    ])
    renderPage(<MyOffersPage />, { path: '/myoffers', at: '/myoffers' })
    const row = await screen.findByTestId('offer-row')
    await within(row).findByText('Lantern')
    expect(within(row).getByRole('button', { name: 'Cancel offer' })).toBeInTheDocument()
    expect(api.mock.calls.some(([url]) => String(url).startsWith('/api/myoffers?') && String(url).includes('state=ALL'))).toBe(true)

    fireEvent.click(screen.getByTestId('offer-filter-EXPIRED'))
    await waitFor(() => expect(api.mock.calls.some(([url]) => String(url).includes('/api/myoffers?') && String(url).includes('state=EXPIRED'))).toBe(true))

    fireEvent.click(screen.getByTestId('offers-received-tab'))
    await waitFor(() => expect(api.mock.calls.some(([url]) => String(url).startsWith('/api/myoffers/received?'))).toBe(true))
    const received = await screen.findByTestId('offer-row')
    await within(received).findByText('From carol')
    expect(within(received).getByTestId('offer-accept')).toBeInTheDocument()
    expect(within(received).getByTestId('offer-reject')).toBeInTheDocument()
  })
})
