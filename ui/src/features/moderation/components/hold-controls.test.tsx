import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { keccak256, stringToBytes, zeroHash } from 'viem'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse } from '@/testing/fetch'
import { BUYER_ADDRESS, OWNER_ADDRESS, nftFixture, profileFixture } from '@/testing/nft'
import type { Nft } from '@/lib/nft/types'

const chain = vi.hoisted(() => ({
  simulateContract: vi.fn(),
  writeContract: vi.fn(),
  waitForTransactionReceipt: vi.fn(),
  readContract: vi.fn(),
  getBlock: vi.fn(),
}))
const notify = vi.hoisted(() => vi.fn())
// Transactions and reads go to the mocked wagmi actions; the runtime's configuration is not what these tests are about.
vi.mock('@/lib/chain-runtime', () => ({ startChainRuntime: async () => ({ config: {} }) }))
vi.mock('@wagmi/core/actions', () => chain)
vi.mock('@/components/ui/toaster', async (importOriginal) => ({ ...(await importOriginal<typeof import('@/components/ui/toaster')>()), notify }))

// Fresh modules that see the mocks above (as trade.test.tsx does), and the stores of that graph.
vi.resetModules()
const { HoldControls } = await import('./hold-controls')
const { renderRoutes } = await import('@/testing/render')
const { useSession } = await import('@/lib/auth')
const { FALLBACK_CONFIG, useConfigStore } = await import('@/lib/app-config')
const { useWalletStore } = await import('@/lib/wallet-store')
const { useWalletConnection } = await import('@/lib/wallet-connection')

const MODERATOR_ADDRESS = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const HASH = `0x${'cd'.repeat(32)}`
/** The chain's clock, a day ahead of the browser's (a dev chain moved forward): ends count from it. */
const CHAIN_NOW = Math.floor(Date.now() / 1000) + 86_400
const DAY = 86_400
const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

/** The NFT as the read model answers it; `hold` changes when the (mocked) chain confirms a hold or release. */
let detail: Nft
let detailReads: number

function connect(address: string) {
  useSession.setState({ token: 'tok', user: profileFixture({ connectedWallet: [{ walletProvider: 'Other', walletAddress: address }] }) })
  useWalletStore.setState({ walletType: 'Other', walletAddress: address, connectorId: 'devWallet' })
  useWalletConnection.setState({ address: address as `0x${string}`, chainId: 80001, status: 'connected' })
}

function render(stolen = true) {
  return renderRoutes([{ path: '/moderation', element: <HoldControls nftId="80001-1" stolen={stolen} /> }], '/moderation')
}

describe('HoldControls', () => {
  beforeEach(() => {
    detail = nftFixture({ nftTokenId: '1', saleHeldUntil: null, saleHoldEvidence: false })
    detailReads = 0
    useConfigStore.setState({ config: { ...FALLBACK_CONFIG, contractAddress: CONTRACT } })
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input)
        if (url === '/api/nft/detail/80001-1') {
          detailReads += 1
          return jsonResponse(200, detail)
        }
        return jsonResponse(404, null, 'Not found')
      }),
    )
    chain.readContract.mockResolvedValue(true)
    chain.getBlock.mockResolvedValue({ timestamp: BigInt(CHAIN_NOW) })
    chain.simulateContract.mockImplementation(async (_config, parameters) => ({ request: parameters }))
    // The read model shows what the confirmed transaction did.
    chain.writeContract.mockImplementation(async (_config, { functionName, args }: { functionName: string; args: readonly unknown[] }) => {
      if (functionName === 'holdSale') detail = { ...detail, formOfSale: 'NOT_FOR_SALE', saleHeldUntil: iso(Number(args[1])), saleHoldEvidence: args[2] !== zeroHash }
      if (functionName === 'releaseSale') detail = { ...detail, saleHeldUntil: null, saleHoldEvidence: false }
      return HASH
    })
    chain.waitForTransactionReceipt.mockResolvedValue({ status: 'success', transactionHash: HASH })
  })
  afterEach(() => {
    useSession.setState({ token: undefined, user: null })
    useWalletStore.setState({ walletType: null, walletAddress: null, connectorId: null, dialogOpen: false })
    useWalletConnection.setState({ address: undefined, chainId: 80001, status: 'disconnected' })
    useConfigStore.setState({ config: null })
    vi.unstubAllGlobals()
    vi.clearAllMocks()
  })

  it('holds a reported sale for 7 days counted from the chain’s clock, without evidence, and shows the hold once the market does', async () => {
    connect(MODERATOR_ADDRESS)
    render()
    expect(await screen.findByTestId('hold-state')).toHaveTextContent('Sale not on hold')
    // The moderator role is read from the contract for the connected wallet.
    await waitFor(() => expect(chain.readContract).toHaveBeenCalled())
    expect(chain.readContract.mock.calls[0][1]).toMatchObject({ functionName: 'isModerator', args: [MODERATOR_ADDRESS], address: CONTRACT })
    await userEvent.click(screen.getByTestId('action-hold'))
    const dialog = await screen.findByTestId('hold-dialog')
    expect(within(dialog).getByRole('radio', { name: /7 days, while the report is reviewed/ })).toBeChecked()
    await userEvent.click(within(dialog).getByTestId('hold-submit'))

    await waitFor(() => expect(chain.writeContract).toHaveBeenCalled())
    const until = BigInt(CHAIN_NOW + 7 * DAY)
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({ functionName: 'holdSale', args: [1n, until, zeroHash], account: MODERATOR_ADDRESS })
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', expect.stringMatching(/^The sale of Sunset over the harbour is on hold until /), 6000))
    const state = await screen.findByText(/^Sale on hold until /)
    expect(state).toHaveAttribute('data-until', iso(Number(until)))
    expect(screen.queryByTestId('hold-evidence-badge')).toBeNull()
    expect(screen.getByTestId('action-release')).toBeEnabled()
  })

  it('holds up to 90 days only with a police report reference, whose hash goes on chain', async () => {
    connect(MODERATOR_ADDRESS)
    render()
    await userEvent.click(await screen.findByTestId('action-hold'))
    const dialog = await screen.findByTestId('hold-dialog')
    await userEvent.click(within(dialog).getByRole('radio', { name: /Up to 90 days, with a police report/ }))
    const days = within(dialog).getByTestId('hold-days')
    await userEvent.clear(days)
    await userEvent.type(days, '91')
    await userEvent.click(within(dialog).getByTestId('hold-submit'))
    expect(within(dialog).getByText('Between 1 and 90 days')).toBeInTheDocument()
    expect(within(dialog).getByText("Enter the police report's reference")).toBeInTheDocument()
    expect(chain.writeContract).not.toHaveBeenCalled()

    await userEvent.clear(days)
    await userEvent.type(days, '60')
    await userEvent.type(within(dialog).getByTestId('hold-evidence'), '  Case 2026/48113, City Police ')
    await userEvent.click(within(dialog).getByTestId('hold-submit'))
    await waitFor(() => expect(chain.writeContract).toHaveBeenCalled())
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({
      functionName: 'holdSale',
      args: [1n, BigInt(CHAIN_NOW + 60 * DAY), keccak256(stringToBytes('Case 2026/48113, City Police'))],
    })
    expect(await screen.findByTestId('hold-evidence-badge')).toHaveTextContent('Police report')
  })

  it('says a connected wallet without the contract’s moderator role cannot hold, and sends nothing', async () => {
    chain.readContract.mockResolvedValue(false)
    connect(BUYER_ADDRESS)
    render()
    const problem = await screen.findByTestId('hold-problem')
    expect(problem).toHaveTextContent(/^The connected wallet 0x3C44\.\.\.93BC is not a moderator of the contract/)
    expect(screen.getByTestId('action-hold')).toBeDisabled()
    expect(chain.simulateContract).not.toHaveBeenCalled()
  })

  it("refuses the owner's own wallet: another moderator must hold its sale", async () => {
    connect(OWNER_ADDRESS)
    render()
    expect(await screen.findByTestId('hold-problem')).toHaveTextContent('Your connected wallet owns this NFT')
    expect(screen.getByTestId('action-hold')).toBeDisabled()
  })

  it('opens the wallet dialog first when no wallet is connected', async () => {
    useSession.setState({ token: 'tok', user: profileFixture() })
    render()
    await userEvent.click(await screen.findByTestId('action-hold'))
    expect(useWalletStore.getState().dialogOpen).toBe(true)
    expect(screen.queryByTestId('hold-dialog')).toBeNull()
    expect(chain.readContract).not.toHaveBeenCalled()
  })

  it('shows a held sale with its end and evidence, extends it only with evidence, and releases it', async () => {
    const end = Math.floor(Date.now() / 1000) + 5 * DAY
    detail = { ...detail, formOfSale: 'NOT_FOR_SALE', saleHeldUntil: iso(end), saleHoldEvidence: true }
    connect(MODERATOR_ADDRESS)
    render(false)
    const state = await screen.findByText(/^Sale on hold until /)
    expect(state).toHaveAttribute('data-held', 'true')
    expect(screen.getByTestId('hold-evidence-badge')).toHaveTextContent('Police report')

    // Extending: the 7-day term is off (the contract counts it from the hold's first start).
    await userEvent.click(screen.getByTestId('action-hold'))
    const dialog = await screen.findByTestId('hold-dialog')
    expect(within(dialog).getByRole('radio', { name: /7 days/ })).toBeDisabled()
    expect(within(dialog).getByRole('radio', { name: /Up to 90 days/ })).toBeChecked()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))

    await userEvent.click(screen.getByTestId('action-release'))
    const confirm = await screen.findByTestId('confirm-dialog')
    await userEvent.click(within(confirm).getByRole('button', { name: 'Release hold' }))
    await waitFor(() => expect(chain.writeContract).toHaveBeenCalled())
    expect(chain.simulateContract.mock.calls[0][1]).toMatchObject({ functionName: 'releaseSale', args: [1n] })
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'The hold on Sunset over the harbour is released', 6000))
    expect(await screen.findByText('Sale not on hold')).toHaveAttribute('data-held', 'false')
    expect(screen.queryByTestId('action-release')).toBeNull()
    expect(detailReads).toBeGreaterThan(1)
  })

  it('treats a hold whose end has passed as none', async () => {
    detail = { ...detail, saleHeldUntil: iso(Math.floor(Date.now() / 1000) - 60), saleHoldEvidence: true }
    connect(MODERATOR_ADDRESS)
    render()
    expect(await screen.findByTestId('hold-state')).toHaveTextContent('Sale not on hold')
    expect(screen.queryByTestId('action-release')).toBeNull()
  })
})
