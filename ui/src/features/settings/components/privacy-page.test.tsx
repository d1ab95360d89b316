import Cookies from 'js-cookie'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, type UserProfile, useSession } from '@/lib/auth'
import { loadChain, useWalletConnection } from '@/lib/wallet-connection'
import { callBody, jsonResponse, stubApi } from '@/testing/fetch'
import { LocationProbe, renderRoutes } from '@/testing/render'
import type { DeletionInfo } from '../api/privacy'
import { PrivacyPage } from './privacy-page'

vi.mock('@/lib/wallet-connection', async (original) => ({ ...(await original<typeof import('@/lib/wallet-connection')>()), loadChain: vi.fn() }))

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const emailAccount: DeletionInfo = {
  authProvider: 'EMAIL',
  hasPassword: true,
  wallets: [WALLET.toLowerCase()],
  openOnChain: [
    { kind: 'LISTING', nftId: 'n1', title: 'Harbour at dawn' },
    { kind: 'BID', nftId: 'n2', title: 'Lantern' },
    { kind: 'OFFER', nftId: '80001-7', title: '' },
  ],
}

const me = { userId: 'u1', email: 'ana@example.com', username: 'ana', authProvider: 'EMAIL', connectedWallet: [] } as unknown as UserProfile

function render() {
  return renderRoutes(
    [
      { path: '/profile/privacy', element: <PrivacyPage /> },
      { path: '*', element: <LocationProbe /> },
    ],
    '/profile/privacy',
  )
}

const posts = (api: ReturnType<typeof stubApi>) =>
  api.mock.calls.map(([url, init], index) => ({ url: String(url), method: (init as RequestInit | undefined)?.method, index })).filter((c) => c.method === 'POST')

async function openDialog() {
  await userEvent.click(screen.getByTestId('account-delete'))
  return screen.findByTestId('delete-account-dialog')
}

describe('privacy settings', () => {
  beforeEach(() => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    useSession.setState({ token: 'tok', user: me })
  })

  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
    Cookies.remove(TOKEN_COOKIE)
    useSession.setState({ token: undefined, user: null })
    useWalletConnection.setState({ status: 'disconnected', address: undefined, connectorId: undefined })
  })

  it('downloads the data with the session token as marketplace-data.json', async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ profile: { username: 'ana' } }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    )
    vi.stubGlobal('fetch', fetchMock)
    const createObjectURL = vi.fn(() => 'blob:data')
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() })
    const clicked: HTMLAnchorElement[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this)
    })
    render()
    expect(screen.getByText(/likes, bookmarks, collections, bids, offers, notifications and their settings/)).toBeInTheDocument()
    await userEvent.click(screen.getByTestId('data-download'))

    await waitFor(() => expect(clicked).toHaveLength(1))
    expect(clicked[0].download).toBe('marketplace-data.json')
    expect(clicked[0].href).toBe('blob:data')
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/api/account/export')
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok')
    expect(await screen.findByText('Your data was downloaded.')).toBeInTheDocument()
  })

  it('shows the server message when a copy is asked for too often', async () => {
    stubApi([{ path: '/api/account/export', status: 429, message: 'Too many requests, try again in an hour' }])
    render()
    await userEvent.click(screen.getByTestId('data-download'))
    expect(await screen.findByTestId('data-export-error')).toHaveTextContent('Too many requests, try again in an hour')
  })

  it('has a link mailed and says so in the server words', async () => {
    const api = stubApi([{ method: 'POST', path: '/api/account/export/email', status: 202, message: 'A link to your data was sent to your e-mail address' }])
    render()
    await userEvent.click(screen.getByTestId('data-email'))
    expect(await screen.findByTestId('data-email-sent')).toHaveTextContent('A link to your data was sent to your e-mail address')
    expect(posts(api).map((p) => p.url)).toEqual(['/api/account/export/email'])
  })

  it('tells what goes and what stays, and links what is still open on chain', async () => {
    stubApi([{ path: '/api/account/deletion', body: emailAccount }])
    render()
    const dialog = await openDialog()
    const goes = await within(dialog).findByTestId('delete-account-goes')
    for (const item of ['Your e-mail address', 'Your name and username', 'Your avatar and cover images', 'Your Google sign-in link', 'Your API keys and webhooks', 'The messages you sent us', 'The ability to sign in to this account']) {
      expect(within(goes).getByText(item)).toBeInTheDocument()
    }
    expect(within(goes).getByText(WALLET)).toBeInTheDocument()
    expect(within(dialog).getByTestId('delete-account-stays')).toHaveTextContent(/shown under your wallet address, no longer under a name/)
    const open = within(dialog).getByTestId('delete-account-open')
    expect(open).toHaveTextContent(/only your wallet can, on chain/)
    const items = within(open).getAllByTestId('delete-account-open-item')
    expect(items.map((item) => item.textContent)).toEqual(['ListingHarbour at dawn', 'BidLantern', 'Offer#7'])
    expect(within(items[0]).getByRole('link', { name: 'Harbour at dawn' })).toHaveAttribute('href', '/nft/n1')
  })

  it('keeps the confirm disabled until the password is typed, and shows a wrong password without signing out', async () => {
    const api = stubApi([
      { path: '/api/account/deletion', body: { ...emailAccount, openOnChain: [] } },
      { method: 'POST', path: '/api/account/delete', status: 401, message: 'Invalid credentials' },
    ])
    const { router } = render()
    const dialog = await openDialog()
    const confirm = await within(dialog).findByTestId('delete-account-confirm')
    expect(within(dialog).queryByTestId('delete-account-open')).toBeNull()
    expect(confirm).toBeDisabled()
    await userEvent.type(within(dialog).getByTestId('delete-account-password'), 'wrong-one')
    expect(confirm).toBeEnabled()
    await userEvent.click(confirm)

    expect(await within(dialog).findByText('Invalid credentials')).toBeInTheDocument()
    const [post] = posts(api)
    expect(post.url).toBe('/api/account/delete')
    expect(callBody(api, post.index)).toEqual({ password: 'wrong-one' })
    expect(router.state.location.pathname).toBe('/profile/privacy')
    expect(useSession.getState().token).toBe('tok')
  })

  it('deletes the account with the password, signs out and goes home with a notice', async () => {
    stubApi([
      { path: '/api/account/deletion', body: emailAccount },
      { method: 'POST', path: '/api/account/delete', message: 'Account deleted' },
    ])
    render()
    const dialog = await openDialog()
    await userEvent.type(await within(dialog).findByTestId('delete-account-password'), 'right-one')
    await userEvent.click(within(dialog).getByTestId('delete-account-confirm'))

    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/)
    expect(await screen.findByText('Your account was deleted.')).toBeInTheDocument()
    expect(useSession.getState().token).toBeUndefined()
    expect(useSession.getState().user).toBeNull()
    expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined()
  })

  it('confirms an account without a password by a linked wallet signing a SIWE message', async () => {
    const signMessage = vi.fn(async () => '0xsigned')
    vi.mocked(loadChain).mockResolvedValue({ signMessage } as never)
    useWalletConnection.setState({ status: 'connected', address: WALLET, connectorId: 'devWallet' })
    const api = stubApi([
      { path: '/api/account/deletion', body: { authProvider: 'GOOGLE', hasPassword: false, wallets: [WALLET.toLowerCase()], openOnChain: [] } },
      { path: '/api/account/walletnonce', body: { nonce: 'n0nce1234567' } },
      { method: 'POST', path: '/api/account/delete', message: 'Account deleted' },
    ])
    render()
    const dialog = await openDialog()
    const confirm = await within(dialog).findByTestId('delete-account-confirm')
    expect(within(dialog).queryByTestId('delete-account-password')).toBeNull()
    expect(confirm).toBeDisabled()
    await userEvent.click(within(dialog).getByTestId('delete-account-sign'))
    expect(await within(dialog).findByTestId('delete-account-signed')).toHaveTextContent(WALLET)
    await userEvent.click(confirm)

    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/)
    const [post] = posts(api)
    const body = callBody(api, post.index)
    expect(body.wallet.address).toBe(WALLET)
    expect(body.wallet.signature).toBe('0xsigned')
    expect(body.wallet.message).toMatch(/Nonce: n0nce1234567/)
    expect(body.wallet.message).toContain(`${WALLET}`)
    expect(signMessage).toHaveBeenCalledWith(body.wallet.message, WALLET)
  })

  it('asks for a linked wallet when the connected one is another', async () => {
    useWalletConnection.setState({ status: 'connected', address: '0x0000000000000000000000000000000000000001', connectorId: 'devWallet' })
    stubApi([{ path: '/api/account/deletion', body: { authProvider: 'GOOGLE', hasPassword: false, wallets: [WALLET.toLowerCase()], openOnChain: [] } }])
    render()
    const dialog = await openDialog()
    expect(await within(dialog).findByTestId('delete-account-connect')).toBeInTheDocument()
    expect(within(dialog).queryByTestId('delete-account-sign')).toBeNull()
  })

  it('shows an error of the server inline when the dialog cannot load', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(500, null, 'Something broke')))
    render()
    const dialog = await openDialog()
    expect(await within(dialog).findByText('Something broke')).toBeInTheDocument()
    expect(within(dialog).getByTestId('delete-account-confirm')).toBeDisabled()
  })
})
