import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useSession } from '@/lib/auth'
import { type WalletConnection, useWalletConnection } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { callBody, stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { chooseSaleForm } from '@/testing/sale-form'
import type { Nft } from '@/lib/nft/types'

// The chain runtime (wagmi's configuration) is not what these tests are about: transactions go to the mocked actions.
vi.mock('@/lib/chain-runtime', () => ({ startChainRuntime: async () => ({ config: {} }) }))
const chain = vi.hoisted(() => ({ simulateContract: vi.fn(), writeContract: vi.fn(), waitForTransactionReceipt: vi.fn() }))
vi.mock('@wagmi/core/actions', async (importOriginal) => ({ ...(await importOriginal<typeof import('@wagmi/core/actions')>()), ...chain }))

const { UpdateNftPage, previewNft } = await import('./update-nft-page')

const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const HASH = '0x2222222222222222222222222222222222222222222222222222222222222222'
const ID = '80001-7'

const setConnection = (connection: Pick<WalletConnection, 'address' | 'chainId' | 'status'>) => useWalletConnection.setState(connection as Partial<WalletConnection>)

const profile = {
  userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'Neo', mobileNumber: '', avatar: '', bio: '', coverImage: '', authProvider: 'EMAIL' as const,
  connectedWallet: [{ walletProvider: 'Other', walletAddress: OWNER }, { walletProvider: 'Other', walletAddress: OTHER }],
}
const person = { userId: 'u1', username: 'neo', fullName: 'Neo', avatar: '' }
const nft = (overrides: Partial<Nft> = {}): Nft => ({
  _id: ID, nftTokenId: '7', file: '/ipfs/bafyimage', title: 'Pink cat', description: 'A cat', nftCategory: 'art', metadataUrl: '/ipfs/bafymeta',
  fixedPrice: '0', formOfSale: 'NOT_FOR_SALE', contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3', contractType: 'ERC721', coinName: 'MATIC',
  totalLikes: 0, isLiked: false, isBookmarked: false, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), currentAuction: null,
  highestBid: '0', royalty: [], properties: [], transactionHash: HASH,
  creator: { ...person, address: OWNER.toLowerCase() }, currentOwner: { ...person, ownerAddress: OWNER.toLowerCase() },
  ...overrides,
})

function api(detail: Nft, update = { status: 200, message: 'NFT updated' }) {
  return stubApi([
    { path: `/api/nft/detail/${ID}`, body: detail },
    { path: '/api/account/myprofile', body: profile },
    { method: 'PUT', path: `/api/nft/update/${ID}`, status: update.status, message: update.message, body: null },
  ])
}

const pad = (n: number) => String(n).padStart(2, '0')
const inOneDay = () => {
  const d = new Date(Date.now() + 24 * 3_600_000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}
const snackbars = () => screen.queryAllByTestId('snackbar').map((s) => s.textContent)
const render = () => renderPage(<UpdateNftPage />, { path: '/nft/update/:id', at: `/nft/update/${ID}` })

describe('update NFT', () => {
  beforeEach(() => {
    useSession.setState({ token: 'tok', user: profile, userFresh: true })
    useWalletStore.setState({ walletType: 'Other', walletAddress: OWNER })
    setConnection({ address: OWNER, chainId: 80001, status: 'connected' })
    chain.simulateContract.mockImplementation(async (_config, request) => ({ request }))
    chain.writeContract.mockResolvedValue(HASH)
    chain.waitForTransactionReceipt.mockResolvedValue({ status: 'success', transactionHash: HASH, logs: [] })
  })
  afterEach(() => {
    useSession.setState({ token: undefined, user: null, userFresh: false })
    useWalletStore.setState({ walletType: null, walletAddress: null, connectorId: null, dialogOpen: false })
    setConnection({ address: undefined, chainId: 80001, status: 'disconnected' })
    chain.simulateContract.mockReset()
    chain.writeContract.mockReset()
    chain.waitForTransactionReceipt.mockReset()
    vi.restoreAllMocks()
    vi.unstubAllGlobals()
  })

  it('previews the sale as typed: valid prices, none for what is not a price yet', () => {
    const end = inOneDay()
    const auction = previewNft(nft(), { formOfSale: 'AUCTION', price: '', basePrice: '1.5', buyPrice: '-2', auctionEnd: end })
    expect(auction.formOfSale).toBe('AUCTION')
    expect(auction.currentAuction).toMatchObject({ auctionStartPrice: '1.5', auctionBuyNowPrice: '', auctionEnded: false, auctionEndHours: new Date(end).toISOString() })
    const fixed = previewNft(nft(), { formOfSale: 'FIXEDPRICE', price: '2.25', basePrice: '1', buyPrice: '3', auctionEnd: end })
    expect(fixed).toMatchObject({ formOfSale: 'FIXEDPRICE', fixedPrice: '2.25', currentAuction: null, title: 'Pink cat' })
  })

  it('refuses an NFT that is on sale, and one the user does not own', async () => {
    api(nft({ formOfSale: 'FIXEDPRICE', fixedPrice: '1' }))
    const first = render()
    expect(await screen.findByText('This NFT is on sale. Stop the sale before you update it.')).toBeInTheDocument()
    expect(screen.queryByTestId('update-form')).not.toBeInTheDocument()
    first.unmount()

    api(nft({ currentOwner: { userId: 'u2', username: 'trin', fullName: 'Trinity', avatar: '', ownerAddress: OTHER.toLowerCase() } }))
    render()
    expect(await screen.findByText('Only the owner of this NFT can update it.')).toBeInTheDocument()
  })

  it('offers fixed price and auction only, applies the price and date rules, and previews the card live', async () => {
    const fetchMock = api(nft())
    const user = userEvent.setup({ delay: null })
    render()
    const form = await screen.findByTestId('update-form')
    expect(within(form).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['Fixed price', 'Auction'])
    const preview = screen.getByTestId('update-preview')
    expect(within(preview).queryByTestId('card-menu')).not.toBeInTheDocument()
    // No price typed yet: a dash, not "0 MATIC".
    expect(within(preview).getByTestId('card-no-price')).toHaveTextContent(/^—No price yet$/)
    expect(within(preview).queryByText(/MATIC/)).not.toBeInTheDocument()

    await user.click(screen.getByTestId('update-submit'))
    expect(screen.getByText('Please provide NFT price.')).toBeInTheDocument()
    expect(screen.queryByText('Please provide royalty information.')).not.toBeInTheDocument()
    await user.type(screen.getByLabelText('Price (MATIC)'), '-3')
    expect(screen.queryByText('Please provide NFT price.')).not.toBeInTheDocument()
    await user.click(screen.getByTestId('update-submit'))
    expect(screen.getByText('Should be greater than 0')).toBeInTheDocument()
    await user.clear(screen.getByLabelText('Price (MATIC)'))
    await user.type(screen.getByLabelText('Price (MATIC)'), '4.5')
    expect(within(preview).getByText(/^4\.500\b/)).toBeInTheDocument()

    await chooseSaleForm(user, 'Auction')
    // The preview re-renders after the form (on a loaded machine, a moment later).
    await waitFor(() => expect(within(preview).getAllByRole('link')[0]).toHaveAttribute('href', `/auction/${ID}`))
    // The end defaults to now, which the preview shows as ended: a later end shows the prices.
    await waitFor(() => expect(within(preview).getByTestId('auction-ended')).toBeInTheDocument())
    fireEvent.change(screen.getByLabelText('Auction ends'), { target: { value: inOneDay() } })
    await user.type(screen.getByLabelText('Base price (MATIC)'), '1.0000000000000000001')
    await user.type(screen.getByLabelText('Buy now price (MATIC)'), '3')
    expect(within(preview).getByText(/^3\b/)).toBeInTheDocument()
    fireEvent.change(screen.getByLabelText('Auction ends'), { target: { value: '2020-01-01T00:00' } })
    await user.click(screen.getByTestId('update-submit'))
    expect(screen.getByText('Value exceeds more than 18 decimals.')).toBeInTheDocument()
    expect(screen.getByText('invalid date')).toBeInTheDocument()
    expect(chain.writeContract).not.toHaveBeenCalled()
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/nft/update/'))).toBe(false)
  })

  it('names the wallet it needs before the form, and refuses another one on submit', async () => {
    api(nft())
    setConnection({ address: OTHER, chainId: 80001, status: 'connected' })
    useWalletStore.setState({ walletType: 'Other', walletAddress: OTHER })
    const user = userEvent.setup({ delay: null })
    render()
    const notice = await screen.findByTestId('owner-wallet-notice')
    expect(within(notice).getByTestId('owner-wallet-address')).toHaveTextContent(OWNER)
    expect(within(notice).getByRole('button', { name: /Switch wallet/ })).toBeInTheDocument()
    await user.type(await screen.findByLabelText('Price (MATIC)'), '2')
    await user.click(screen.getByTestId('update-submit'))
    await waitFor(() => expect(snackbars()).toContain(`You are connected to a different wallet. This needs ${OWNER}.`))
    expect(chain.writeContract).not.toHaveBeenCalled()
  })

  it("says nothing about wallets when the owner's is connected", async () => {
    api(nft())
    render()
    await screen.findByLabelText('Price (MATIC)')
    expect(screen.queryByTestId('owner-wallet-notice')).toBeNull()
  })

  it('brings the first invalid field into view below the sticky header on a failed submit', async () => {
    api(nft())
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {})
    const user = userEvent.setup({ delay: null })
    render()
    const price = await screen.findByLabelText('Price (MATIC)')
    await user.click(screen.getByTestId('update-submit'))
    expect(screen.getByText('Please provide NFT price.')).toBeInTheDocument()
    await waitFor(() => expect(price).toHaveFocus())
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ behavior: 'smooth' }))
    scrollTo.mockRestore()
  })

  it('toggles the sale on chain, waits for 1 confirmation, records it and goes to /myprofile', async () => {
    const fetchMock = api(nft())
    const user = userEvent.setup({ delay: null })
    render()
    await user.click(await screen.findByText('Auction'))
    // The auction's fields render after the choice (on a loaded machine, a moment later).
    await user.type(await screen.findByLabelText('Base price (MATIC)'), '1')
    await user.type(screen.getByLabelText('Buy now price (MATIC)'), '2.5')
    const end = new Date(Date.now() + 24 * 3_600_000)
    end.setSeconds(0, 0)
    fireEvent.change(screen.getByLabelText('Auction ends'), {
      target: { value: `${end.getFullYear()}-${pad(end.getMonth() + 1)}-${pad(end.getDate())}T${pad(end.getHours())}:${pad(end.getMinutes())}` },
    })
    await user.click(screen.getByTestId('update-submit'))
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/myprofile'))

    const request = chain.simulateContract.mock.calls[0][1]
    expect(request.functionName).toBe('toggleForSale')
    expect(request.args).toEqual([7n, 2, 2500000000000000000n, BigInt(end.getTime() / 1000), 1000000000000000000n])
    expect(chain.waitForTransactionReceipt.mock.calls[0][1]).toMatchObject({ hash: HASH, confirmations: 1 })
    const index = fetchMock.mock.calls.findIndex(([url]) => String(url) === `/api/nft/update/${ID}`)
    expect((fetchMock.mock.calls[index][1] as RequestInit).method).toBe('PUT')
    expect(callBody(fetchMock, index)).toEqual({
      formOfSale: 'AUCTION',
      fixedPrice: '2.5',
      auctionStartPrice: '1',
      auctionEndHours: end.getTime(),
      saleCoin: 1,
      transactionHash: HASH,
    })
    expect(snackbars()).toContain('NFT updated!')
  })

  it('shows the server message of a failed update and closes the overlay', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    api(nft(), { status: 400, message: 'The transaction does not list this NFT' })
    const user = userEvent.setup({ delay: null })
    render()
    await user.type(await screen.findByLabelText('Price (MATIC)'), '2')
    await user.click(screen.getByTestId('update-submit'))
    await waitFor(() => expect(snackbars()).toContain('The transaction does not list this NFT'))
    expect(screen.queryByTestId('busy-message')).not.toBeInTheDocument()
    expect(screen.queryByTestId('location')).not.toBeInTheDocument()
  })
})
