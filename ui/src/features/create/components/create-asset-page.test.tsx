import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { UserRejectedRequestError } from 'viem'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useSession } from '@/lib/auth'
import { useBusyStore } from '@/lib/busy-store'
import { type WalletConnection, useWalletConnection } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { chooseSaleForm } from '@/testing/sale-form'

// The chain runtime (wagmi's configuration) is not what these tests are about: transactions go to the mocked actions.
vi.mock('@/lib/chain-runtime', () => ({ startChainRuntime: async () => ({ config: {} }) }))
const chain = vi.hoisted(() => ({ simulateContract: vi.fn(), writeContract: vi.fn(), waitForTransactionReceipt: vi.fn() }))
vi.mock('@wagmi/core/actions', async (importOriginal) => ({ ...(await importOriginal<typeof import('@wagmi/core/actions')>()), ...chain }))

const { CreateAssetPage } = await import('./create-asset-page')

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const ROYALTY_A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const ROYALTY_B = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const HASH = '0x1111111111111111111111111111111111111111111111111111111111111111'
const RECEIPT = { status: 'success', transactionHash: HASH, blockNumber: 12n, logs: [] }
const TOKEN_URI = 'ipfs://bafkreimetadata'

const setConnection = (connection: Pick<WalletConnection, 'address' | 'chainId' | 'status'>) => useWalletConnection.setState(connection as Partial<WalletConnection>)

const profile = {
  userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'Neo', mobileNumber: '', avatar: '', bio: '', coverImage: '', authProvider: 'EMAIL' as const,
  connectedWallet: [{ walletProvider: 'Other', walletAddress: ADDRESS }],
}

function signedIn({ wallet = true, chainId = 80001 } = {}) {
  useSession.setState({ token: 'tok', user: profile, userFresh: true })
  if (wallet) {
    useWalletStore.setState({ walletType: 'Other', walletAddress: ADDRESS, dialogOpen: false })
    setConnection({ address: ADDRESS, chainId, status: 'connected' })
  }
}

function api({ upload = { status: 200 }, generation = { status: 200 } }: { upload?: { status: number; message?: string }; generation?: { status: number; message?: string } } = {}) {
  return stubApi([
    { path: '/api/misc/category', body: [{ id: 'art', categoryName: 'Art' }, { id: 'music', categoryName: 'Music' }] },
    { path: '/api/account/myprofile', body: profile },
    { method: 'POST', path: '/api/nft/ipfsupload', status: upload.status, message: upload.message ?? 'Uploaded', body: upload.status === 200 ? { metaData: TOKEN_URI } : null },
    { method: 'POST', path: '/api/nft/generation', status: generation.status, message: generation.message ?? 'Created', body: generation.status === 200 ? { _id: '80001-1' } : null },
  ])
}

/** A PNG's signature and the start of its header: what the page checks a picked file by. */
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])

const callsTo = (fetchMock: ReturnType<typeof stubApi>, path: string) =>
  fetchMock.mock.calls.filter(([url]) => String(url).startsWith(path))
const snackbars = () => screen.queryAllByTestId('snackbar').map((s) => s.textContent)
const errorsIn = (container: HTMLElement) => Array.from(container.querySelectorAll('.chakra-field__errorText, [data-testid$="-error"]')).map((e) => e.textContent)

/** Fills step 0 through its labels and test ids (the same ones ui/e2e/create-asset.mjs uses). */
async function fillCreateAssetForm(
  user: ReturnType<typeof userEvent.setup>,
  { title, description, category, properties = [] }: { title: string; description: string; category: string; properties?: [string, string][] },
) {
  await user.upload(screen.getByTestId('asset-file-input'), new File([PNG_BYTES], 'cat.png', { type: 'image/png' }))
  await screen.findByAltText('Preview of the chosen image')
  await user.type(screen.getByLabelText('Name'), title)
  await user.type(screen.getByLabelText('Description'), description)
  await waitFor(() => expect(screen.getByRole('option', { name: 'Art' })).toBeInTheDocument())
  await user.selectOptions(screen.getByLabelText('Category'), category)
  if (properties.length > 0) {
    await user.click(screen.getByTestId('open-properties'))
    const dialog = await screen.findByTestId('properties-dialog')
    for (const [index, [key, value]] of properties.entries()) {
      if (index > 0) await user.click(within(dialog).getByRole('button', { name: 'Add property' }))
      await user.type(within(dialog).getByLabelText(`Property ${index + 1}`), key)
      await user.type(within(dialog).getByLabelText(`Value ${index + 1}`), value)
    }
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByTestId('properties-dialog')).not.toBeInTheDocument())
  }
}

/** Pastes a long value (an address) instead of typing it key by key. */
async function paste(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.click(input)
  await user.paste(text)
}

async function toStepOne(user: ReturnType<typeof userEvent.setup>) {
  await fillCreateAssetForm(user, { title: 'Pink cat', description: 'A cat, in pink', category: 'art' })
  await user.click(screen.getByTestId('create-next'))
  await screen.findByRole('heading', { name: 'Add NFT' })
}

describe('create asset', () => {
  let busyMessages: string[]
  let unsubscribe: () => void
  beforeEach(() => {
    busyMessages = []
    unsubscribe = useBusyStore.subscribe((s, previous) => {
      if (s.message && s.message !== previous.message) busyMessages.push(s.message)
    })
    chain.simulateContract.mockImplementation(async (_config, request) => ({ request }))
    chain.writeContract.mockResolvedValue(HASH)
    chain.waitForTransactionReceipt.mockResolvedValue(RECEIPT)
  })
  afterEach(() => {
    unsubscribe()
    useSession.setState({ token: undefined, user: null, userFresh: false })
    useWalletStore.setState({ walletType: null, walletAddress: null, connectorId: null, dialogOpen: false })
    useBusyStore.setState({ message: null })
    setConnection({ address: undefined, chainId: 80001, status: 'disconnected' })
    chain.simulateContract.mockReset()
    chain.writeContract.mockReset()
    chain.waitForTransactionReceipt.mockReset()
    vi.restoreAllMocks()
    vi.unstubAllGlobals()
  })

  it('opens the wallet dialog for a signed-in user without a wallet', async () => {
    signedIn({ wallet: false })
    api()
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    expect(await screen.findByRole('heading', { name: 'Create Asset' })).toBeInTheDocument()
    await waitFor(() => expect(useWalletStore.getState().dialogOpen).toBe(true))
  })

  it('shows every step 0 message on submit only, and clears each as its field is edited', async () => {
    signedIn()
    const fetchMock = api()
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    const form = await screen.findByTestId('create-step-0')
    expect(screen.queryByText("NFT name can't be empty.")).not.toBeInTheDocument()

    await user.click(screen.getByTestId('create-next'))
    const page = form.parentElement!.parentElement!
    expect(errorsIn(page).sort()).toEqual(
      ["NFT name can't be empty.", "NFT description can't be empty.", "NFT category can't be empty.", 'Please upload image.'].sort(),
    )
    // The first message in the spec's order is the name's, under the name field.
    expect(within(screen.getByTestId('asset-title').closest('.chakra-field__root') as HTMLElement).getByText("NFT name can't be empty.")).toBeInTheDocument()

    await user.type(screen.getByLabelText('Name'), 'Pink cat')
    expect(screen.queryByText("NFT name can't be empty.")).not.toBeInTheDocument()
    expect(screen.getByText("NFT description can't be empty.")).toBeInTheDocument()
    await user.type(screen.getByLabelText('Description'), 'A cat')
    await user.selectOptions(screen.getByLabelText('Category'), 'art')
    expect(screen.queryByText("NFT category can't be empty.")).not.toBeInTheDocument()
    expect(screen.getByText('Please upload image.')).toBeInTheDocument()
    await user.upload(screen.getByTestId('asset-file-input'), new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'cat.svg', { type: 'image/svg+xml' }))
    expect(await screen.findByAltText('Preview of the chosen image')).toBeInTheDocument()
    expect(screen.queryByText('Please upload image.')).not.toBeInTheDocument()
    expect(callsTo(fetchMock, '/api/nft/ipfsupload')).toHaveLength(0)
  })

  it('offers PNG, JPEG and SVG and refuses other files by their content, whatever their name', async () => {
    signedIn()
    api()
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    const input = (await screen.findByTestId('asset-file-input')) as HTMLInputElement
    expect(input.accept).toBe('image/png,image/jpeg,image/svg+xml')
    fireEvent.change(input, { target: { files: [new File(['<html>'], 'page.html', { type: 'text/html' })] } })
    expect(await screen.findByTestId('asset-file-error')).toHaveTextContent('This file is not a PNG, JPEG or SVG image.')
    expect(screen.queryByAltText('Preview of the chosen image')).not.toBeInTheDocument()

    // A text file named .png: no broken preview, the same message, brought into view.
    fireEvent.change(input, { target: { files: [new File(['just some text'], 'notes.png', { type: 'image/png' })] } })
    await waitFor(() => expect(screen.getByTestId('asset-image-button')).toHaveFocus())
    expect(screen.getByTestId('asset-file-error')).toHaveTextContent('This file is not a PNG, JPEG or SVG image.')
    expect(screen.getByTestId('asset-image-button').closest('[aria-describedby]')).toHaveAttribute('aria-describedby', 'asset-file-error')
    expect(screen.queryByAltText('Preview of the chosen image')).not.toBeInTheDocument()

    // A real PNG, even named .txt, is taken and clears the message.
    fireEvent.change(input, { target: { files: [new File([PNG_BYTES], 'cat.txt', { type: 'text/plain' })] } })
    expect(await screen.findByAltText('Preview of the chosen image')).toBeInTheDocument()
    expect(screen.queryByTestId('asset-file-error')).not.toBeInTheDocument()
  })

  it("shows the server's not-an-image refusal as the wrong-type message, under the image", async () => {
    signedIn()
    vi.spyOn(console, 'error').mockImplementation(() => {})
    api({ upload: { status: 400, message: 'file: not an image (PNG, JPEG, GIF, WebP or SVG), whatever its name' } })
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await screen.findByTestId('create-step-0')
    await fillCreateAssetForm(user, { title: 'Pink cat', description: 'A cat', category: 'art' })
    await user.click(screen.getByTestId('create-next'))
    expect(await screen.findByTestId('asset-file-error')).toHaveTextContent('Only PNG, JPEG and SVG images can be uploaded.')
    expect(snackbars().join(' ')).not.toContain('whatever its name')
    expect(screen.getByRole('heading', { name: 'Create Asset' })).toBeInTheDocument()
  })

  it('brings the first invalid field into view below the sticky header and focuses it', async () => {
    signedIn()
    api()
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {})
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await screen.findByTestId('create-step-0')
    await user.click(screen.getByTestId('create-next'))
    // The image comes first (at the top on a phone).
    await waitFor(() => expect(screen.getByTestId('asset-image-button')).toHaveFocus())
    await user.upload(screen.getByTestId('asset-file-input'), new File([PNG_BYTES], 'cat.png', { type: 'image/png' }))
    await screen.findByAltText('Preview of the chosen image')
    await user.type(screen.getByLabelText('Name'), 'Pink cat')
    await user.click(screen.getByTestId('create-next'))
    // Image and name are fine: the description is the first field with a message.
    await waitFor(() => expect(screen.getByLabelText('Description')).toHaveFocus())
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ behavior: 'smooth' }))
    scrollTo.mockRestore()
  })

  it('edits properties in the popup: remove only with more than one row, both fields required, Save and Close', async () => {
    signedIn()
    api()
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await user.click(await screen.findByTestId('open-properties'))
    const dialog = await screen.findByTestId('properties-dialog')
    expect(within(dialog).queryByLabelText('Remove property 1')).not.toBeInTheDocument()
    await user.type(within(dialog).getByLabelText('Property 1'), 'Color')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Property & Value both are required fields.')
    await user.type(within(dialog).getByLabelText('Value 1'), 'Pink')
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Add property' }))
    expect(within(dialog).getByLabelText('Remove property 1')).toBeInTheDocument()
    await user.type(within(dialog).getByLabelText('Property 2'), 'Size')
    await user.type(within(dialog).getByLabelText('Value 2'), 'XL')
    await user.click(within(dialog).getByLabelText('Remove property 2'))
    expect(within(dialog).queryByLabelText('Property 2')).not.toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByTestId('properties-dialog')).not.toBeInTheDocument())
    expect(screen.getByTestId('asset-properties')).toHaveTextContent('Color: Pink')

    // Close drops the draft.
    await user.click(screen.getByTestId('open-properties'))
    const again = await screen.findByTestId('properties-dialog')
    await user.clear(within(again).getByLabelText('Value 1'))
    await user.type(within(again).getByLabelText('Value 1'), 'Blue')
    await user.click(within(again).getAllByRole('button', { name: 'Close' })[0])
    await waitFor(() => expect(screen.queryByTestId('properties-dialog')).not.toBeInTheDocument())
    expect(screen.getByTestId('asset-properties')).toHaveTextContent('Color: Pink')
  })

  it('uploads step 0 to IPFS as multipart and opens step 1 only after it succeeds', async () => {
    signedIn()
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const fetchMock = api({ upload: { status: 400, message: 'The file is not an image' } })
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await screen.findByTestId('create-step-0')
    await fillCreateAssetForm(user, { title: 'Pink cat', description: 'A cat, in pink', category: 'art', properties: [['Color', 'Pink']] })
    await user.click(screen.getByTestId('create-next'))
    await waitFor(() => expect(snackbars()).toContain('The file is not an image'))
    expect(screen.getByRole('heading', { name: 'Create Asset' })).toBeInTheDocument()
    expect(useBusyStore.getState().message).toBeNull()
    expect(busyMessages).toContain('Uploading to IPFS...')
    expect(log).toHaveBeenCalledWith('IPFS upload failed', expect.anything())

    const [, init] = callsTo(fetchMock, '/api/nft/ipfsupload')[0]
    const body = (init as RequestInit).body as FormData
    expect(body.get('title')).toBe('Pink cat')
    expect(body.get('description')).toBe('A cat, in pink')
    expect(body.get('nftCategory')).toBe('art')
    expect(JSON.parse(body.get('properties') as string)).toEqual([{ key: 'Color', value: 'Pink' }])
    expect((body.get('file') as File).name).toBe('cat.png')
  })

  it('goes back to step 0 with its fields kept, and uploads again on Next', async () => {
    signedIn()
    const fetchMock = api()
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await screen.findByTestId('create-step-0')
    await toStepOne(user)
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expect(await screen.findByRole('heading', { name: 'Create Asset' })).toBeInTheDocument()
    expect(screen.getByLabelText('Name')).toHaveValue('Pink cat')
    await user.type(screen.getByLabelText('Name'), ' II')
    await user.click(screen.getByTestId('create-next'))
    await screen.findByRole('heading', { name: 'Add NFT' })
    const uploads = callsTo(fetchMock, '/api/nft/ipfsupload')
    expect(uploads).toHaveLength(2)
    expect(((uploads[1][1] as RequestInit).body as FormData).get('title')).toBe('Pink cat II')
  })

  it('checks the wallet, then the network, before the sale rules of step 1', async () => {
    signedIn({ chainId: 1 })
    api()
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await screen.findByTestId('create-step-0')
    await toStepOne(user)
    await user.click(screen.getByTestId('create-submit'))
    await waitFor(() => expect(snackbars()).toContain('You are connected to a different network.'))
    expect(screen.queryByText('Please provide NFT price.')).not.toBeInTheDocument()

    setConnection({ address: undefined, chainId: 80001, status: 'disconnected' })
    await user.type(screen.getByLabelText('Price (MATIC)'), '1')
    await user.click(screen.getByTestId('create-submit'))
    await waitFor(() => expect(useWalletStore.getState().dialogOpen).toBe(true))
    expect(chain.writeContract).not.toHaveBeenCalled()
  })

  it('shows the sale messages of the spec on submit, per sale type, cleared as the user edits', async () => {
    signedIn()
    api()
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await screen.findByTestId('create-step-0')
    await toStepOne(user)
    const form = screen.getByTestId('create-step-1')
    expect(screen.getByRole('radio', { name: 'Fixed price' })).toBeChecked()

    await user.click(screen.getByTestId('create-submit'))
    expect(errorsIn(form)).toEqual(['Please provide NFT price.', 'Please provide royalty information.'])
    await user.type(screen.getByLabelText('Price (MATIC)'), '-1')
    expect(errorsIn(form)).toEqual(['Please provide royalty information.'])
    await user.click(screen.getByTestId('create-submit'))
    expect(errorsIn(form)).toEqual(['Should be greater than 0', 'Please provide royalty information.'])
    await user.clear(screen.getByLabelText('Price (MATIC)'))
    await user.type(screen.getByLabelText('Price (MATIC)'), '0.0000000000000000001')
    await user.click(screen.getByTestId('create-submit'))
    expect(errorsIn(form)[0]).toBe('Value exceeds more than 18 decimals.')

    await chooseSaleForm(user, 'Auction')
    expect(errorsIn(form)).toEqual([])
    fireEvent.change(screen.getByLabelText('Auction ends'), { target: { value: '2020-01-01T00:00' } })
    await user.click(screen.getByTestId('create-submit'))
    expect(errorsIn(form)).toEqual(['Please provide NFT base price.', 'Please provide NFT buy price.', 'invalid date', 'Please provide royalty information.'])
    await user.type(screen.getByLabelText('Base price (MATIC)'), '2')
    await user.type(screen.getByLabelText('Buy now price (MATIC)'), '1')
    await user.click(screen.getByTestId('create-submit'))
    expect(errorsIn(form)).toEqual(['Buy price should be greater than base price.', 'invalid date', 'Please provide royalty information.'])

    await chooseSaleForm(user, 'Not for sale')
    await user.click(screen.getByTestId('create-submit'))
    expect(errorsIn(form)).toEqual([])
  })

  it('applies the royalty popup rules in the spec order, at most 2 rows', async () => {
    signedIn()
    api()
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await screen.findByTestId('create-step-0')
    await toStepOne(user)
    await user.click(screen.getByTestId('open-royalty'))
    const dialog = await screen.findByTestId('royalty-dialog')
    const alert = () => within(dialog).queryByRole('alert')?.textContent ?? null
    const save = () => user.click(within(dialog).getByRole('button', { name: 'Save' }))

    expect(within(dialog).getByText('Please enter only Ethereum wallet address.')).toBeInTheDocument()
    await paste(user, within(dialog).getByLabelText('Wallet address 1'), ROYALTY_A)
    await save()
    expect(alert()).toBe('Address & Percentage both are required fields.')
    await user.type(within(dialog).getByLabelText('Percentage 1'), '100')
    expect(alert()).toBeNull()
    await save()
    expect(alert()).toBe('Royalty percentage should be less than 100.')
    await user.clear(within(dialog).getByLabelText('Percentage 1'))
    await user.type(within(dialog).getByLabelText('Percentage 1'), '60')
    await user.click(within(dialog).getByRole('button', { name: 'Add royalty' }))
    await paste(user, within(dialog).getByLabelText('Wallet address 2'), ROYALTY_A.toLowerCase())
    await user.type(within(dialog).getByLabelText('Percentage 2'), '40')
    await save()
    expect(alert()).toBe('Royalty percentage should be less than 100.')
    await user.clear(within(dialog).getByLabelText('Percentage 2'))
    await user.type(within(dialog).getByLabelText('Percentage 2'), '10')
    await save()
    expect(alert()).toBe("Two addresses can't be same.")
    await user.click(within(dialog).getByRole('button', { name: 'Add royalty' }))
    expect(alert()).toBe('Max. 2 royalties can be added.')
    expect(within(dialog).queryByLabelText('Wallet address 3')).not.toBeInTheDocument()
    await user.clear(within(dialog).getByLabelText('Wallet address 2'))
    await paste(user, within(dialog).getByLabelText('Wallet address 2'), 'not-an-address')
    await save()
    expect(alert()).toBe('Please enter only Ethereum wallet address.')
    await user.clear(within(dialog).getByLabelText('Wallet address 2'))
    await paste(user, within(dialog).getByLabelText('Wallet address 2'), ROYALTY_B)
    await save()
    await waitFor(() => expect(screen.queryByTestId('royalty-dialog')).not.toBeInTheDocument())
    expect(screen.getByTestId('asset-royalties')).toHaveTextContent(`${ROYALTY_A} · 60%`)
    expect(screen.getByText('70% in total')).toBeInTheDocument()
  })

  it('uploads, mints with the contract units, waits for 1 confirmation, records and goes to /myprofile', async () => {
    signedIn()
    const fetchMock = api()
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await screen.findByTestId('create-step-0')
    await toStepOne(user)
    await chooseSaleForm(user, 'Auction')
    await user.type(screen.getByLabelText('Base price (MATIC)'), '0.5')
    await user.type(screen.getByLabelText('Buy now price (MATIC)'), '1.25')
    const end = new Date(Date.now() + 48 * 3_600_000)
    end.setSeconds(0, 0)
    const pad = (n: number) => String(n).padStart(2, '0')
    fireEvent.change(screen.getByLabelText('Auction ends'), {
      target: { value: `${end.getFullYear()}-${pad(end.getMonth() + 1)}-${pad(end.getDate())}T${pad(end.getHours())}:${pad(end.getMinutes())}` },
    })
    await user.click(screen.getByTestId('open-royalty'))
    const dialog = await screen.findByTestId('royalty-dialog')
    await paste(user, within(dialog).getByLabelText('Wallet address 1'), ROYALTY_A)
    await user.type(within(dialog).getByLabelText('Percentage 1'), '2.5')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByTestId('royalty-dialog')).not.toBeInTheDocument())
    await user.click(screen.getByTestId('create-submit'))

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/myprofile'))
    expect(chain.simulateContract).toHaveBeenCalledTimes(1)
    const request = chain.simulateContract.mock.calls[0][1]
    expect(request.functionName).toBe('mint')
    expect(request.args).toEqual([TOKEN_URI, 2, [ROYALTY_A], [250n], BigInt(end.getTime() / 1000), 500000000000000000n, 1250000000000000000n])
    expect(request.chainId).toBe(80001)
    expect(chain.waitForTransactionReceipt.mock.calls[0][1]).toMatchObject({ hash: HASH, confirmations: 1 })

    const apiCalls = fetchMock.mock.calls.map(([url, init]) => `${(init as RequestInit | undefined)?.method ?? 'GET'} ${String(url).split('?')[0]}`)
    const nftCalls = apiCalls.filter((c) => c.includes('/api/nft/'))
    expect(nftCalls).toEqual(['POST /api/nft/ipfsupload', 'POST /api/nft/generation'])
    expect(chain.writeContract.mock.invocationCallOrder[0]).toBeLessThan(fetchMock.mock.invocationCallOrder[apiCalls.indexOf('POST /api/nft/generation')])

    const [, init] = callsTo(fetchMock, '/api/nft/generation')[0]
    expect((init as RequestInit & { headers: Record<string, string> }).headers['Content-Type']).toMatch(/^application\/x-www-form-urlencoded/)
    const fields = Object.fromEntries(new URLSearchParams((init as RequestInit).body as string))
    expect(fields).toMatchObject({
      formOfSale: 'AUCTION',
      saleCoin: '1',
      metaData: TOKEN_URI,
      nftCategory: 'art',
      fixedPrice: '1.25',
      auctionStartPrice: '0.5',
      auctionEndHours: String(end.getTime()),
      transactionHash: HASH,
    })
    expect(JSON.parse(fields.royalty)).toEqual([{ walletAddress: ROYALTY_A, percentage: 2.5 }])
    expect(JSON.parse(fields.mintResponse)).toMatchObject({ transactionHash: HASH, blockNumber: '12', status: 'success' })
    expect(busyMessages).toEqual(['Uploading to IPFS...', 'Minting token...', 'Creating NFT...'])
    expect(snackbars()).toContain('NFT created!')
  })

  it('shows the wallet message of a rejected signature and records nothing', async () => {
    signedIn()
    const fetchMock = api()
    chain.writeContract.mockRejectedValue(new UserRejectedRequestError(new Error('User denied transaction signature.')))
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await screen.findByTestId('create-step-0')
    await toStepOne(user)
    await chooseSaleForm(user, 'Not for sale')
    await user.click(screen.getByTestId('create-submit'))
    await waitFor(() => expect(snackbars()).toContain('You cancelled the transaction in your wallet.'))
    expect(callsTo(fetchMock, '/api/nft/generation')).toHaveLength(0)
    expect(useBusyStore.getState().message).toBeNull()
    expect(screen.getByRole('heading', { name: 'Add NFT' })).toBeInTheDocument()
  })

  it('records a failed transaction as nothing, and a failed record call is retried without minting again', async () => {
    signedIn()
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const fetchMock = api({ generation: { status: 400, message: 'The transaction is not a mint of this metadata' } })
    chain.waitForTransactionReceipt.mockResolvedValueOnce({ ...RECEIPT, status: 'reverted' })
    const user = userEvent.setup({ delay: null })
    renderPage(<CreateAssetPage />, { path: '/create-asset', at: '/create-asset' })
    await screen.findByTestId('create-step-0')
    await toStepOne(user)
    await chooseSaleForm(user, 'Not for sale')
    await user.click(screen.getByTestId('create-submit'))
    await waitFor(() => expect(chain.waitForTransactionReceipt).toHaveBeenCalledTimes(1))
    await waitFor(() => expect(useBusyStore.getState().message).toBeNull())
    expect(callsTo(fetchMock, '/api/nft/generation')).toHaveLength(0)

    await user.click(screen.getByTestId('create-submit'))
    await waitFor(() => expect(snackbars()).toContain('The transaction is not a mint of this metadata'))
    expect(screen.getByTestId('record-pending')).toBeInTheDocument()
    expect(chain.writeContract).toHaveBeenCalledTimes(2)

    stubApi([{ method: 'POST', path: '/api/nft/generation', body: { _id: '80001-1' } }, { path: '/api/account/myprofile', body: profile }])
    await user.click(screen.getByTestId('create-submit'))
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/myprofile'))
    expect(chain.writeContract).toHaveBeenCalledTimes(2)
  })
})
