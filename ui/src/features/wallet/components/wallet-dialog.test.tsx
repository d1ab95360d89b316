import Cookies from 'js-cookie'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { verifyMessage } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type AppConfig, FALLBACK_CONFIG, useConfigStore } from '@/lib/app-config'
import { TOKEN_COOKIE, useSession } from '@/lib/auth'
import { requestedChain } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { callBody, stubApi } from '@/testing/fetch'
import { renderRoutes } from '@/testing/render'
import { SIWE_STATEMENT } from '@/lib/siwe'
import { WalletDialog } from './wallet-dialog'

const MNEMONIC = 'test test test test test test test test test test test junk'
const config: AppConfig = { ...FALLBACK_CONFIG, rpcUrl: 'http://127.0.0.1:1', devWallet: true, devMnemonic: MNEMONIC }
const me = { userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'Neo', mobileNumber: '', avatar: '', bio: '', coverImage: '', authProvider: 'EMAIL' as const, connectedWallet: [] }

/** The dev wallet's accounts as GET /api/dev/wallets answers: 10 is the user's, 11 kofi's. */
const ACCOUNTS = Array.from({ length: 20 }, (_, index) => ({
  index,
  address: mnemonicToAccount(MNEMONIC, { addressIndex: index }).address,
  linkedTo:
    index === 10
      ? { userId: 'u1', username: 'neo', fullName: 'Neo' }
      : index === 11
        ? { userId: 'u2', username: 'kofi_waves', fullName: 'Kofi Mensah' }
        : null,
  mine: index === 10,
}))
const devWallets = { path: '/api/dev/wallets', body: ACCOUNTS }

function render() {
  renderRoutes([{ path: '/', element: <WalletDialog /> }], '/')
}

describe('wallet dialog with the dev wallet', () => {
  beforeEach(() => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    useSession.setState({ token: 'tok', user: me })
    useConfigStore.setState({ config })
    useWalletStore.setState({ dialogOpen: true, walletType: null, walletAddress: null, connectorId: null })
  })
  afterEach(async () => {
    // A connected wallet keeps the chain runtime polling its balance: end it before the next test.
    await requestedChain()?.then((chain) => chain.disconnect())
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
    useConfigStore.setState({ config: null })
    // The next file in this worker renders the shell, which would show a dialog left open.
    useWalletStore.setState({ dialogOpen: false, wantedAddress: null, walletType: null, walletAddress: null, connectorId: null })
  })

  it('offers the dev wallet with twenty accounts, signs a SIWE message with the server nonce and links it', async () => {
    const api = stubApi([
      devWallets,
      { path: '/api/account/walletnonce', body: { nonce: 'n0nce12345678' } },
      { method: 'PUT', path: '/api/account/connectwallet', message: 'Connected!' },
    ])
    render()
    // The first opening loads the wallet libraries, then the wallets' own code.
    const select = await screen.findByTestId('dev-wallet-account', {}, { timeout: 10000 })
    expect(select.querySelectorAll('option')).toHaveLength(20)
    await userEvent.selectOptions(select, '3')
    expect(screen.getByTestId('dev-wallet-account-hint')).toHaveTextContent('Not linked yet: connecting links it to your account.')
    await userEvent.click(screen.getByTestId('wallet-option-devWallet'))

    expect(await screen.findByText('Connected!')).toBeInTheDocument()
    const putIndex = api.mock.calls.findIndex(([url]) => url === '/api/account/connectwallet')
    const body = callBody(api, putIndex)
    const expected = mnemonicToAccount(MNEMONIC, { addressIndex: 3 }).address
    expect(body.walletProvider).toBe('Other')
    expect(body.walletAddress).toBe(expected)
    expect(body.message).toContain(SIWE_STATEMENT)
    expect(body.message).toContain('Nonce: n0nce12345678')
    expect(body.message).toContain('Chain ID: 80001')
    expect(body.message).toContain(`URI: ${window.location.origin}`)
    expect(await verifyMessage({ address: expected, message: body.message, signature: body.signature })).toBe(true)
    await waitFor(() => expect(useWalletStore.getState()).toMatchObject({ walletType: 'Other', walletAddress: expected, dialogOpen: false }))
  })

  it("marks the accounts linked to the user and to someone else, and offers the user's own first", async () => {
    const api = stubApi([devWallets])
    render()
    const select = (await screen.findByTestId('dev-wallet-account', {}, { timeout: 10000 })) as HTMLSelectElement
    const short = (i: number) => `${ACCOUNTS[i].address.slice(0, 6)}...${ACCOUNTS[i].address.slice(-4)}`
    await waitFor(() => expect(select.value).toBe('10'))
    const labels = [...select.querySelectorAll('option')].map((o) => o.textContent)
    expect(labels[10]).toBe(`#10 ${short(10)} · yours`)
    expect(labels[11]).toBe(`#11 ${short(11)} · @kofi_waves`)
    expect(labels[3]).toBe(`#3 ${short(3)}`)
    expect(screen.getByTestId('dev-wallet-account-hint')).toHaveTextContent('Linked to your account.')
    await userEvent.selectOptions(select, '11')
    expect(screen.getByTestId('dev-wallet-account-hint')).toHaveTextContent('Linked to @kofi_waves: only they can use it.')
    expect(api.mock.calls.some(([url]) => url === '/api/dev/wallets')).toBe(true)
  })

  it('offers the account a screen asked for (an NFT owner) and names it', async () => {
    stubApi([devWallets])
    useWalletStore.setState({ dialogOpen: true, wantedAddress: ACCOUNTS[11].address.toLowerCase() })
    render()
    const select = (await screen.findByTestId('dev-wallet-account', {}, { timeout: 10000 })) as HTMLSelectElement
    await waitFor(() => expect(select.value).toBe('11'))
    expect(screen.getByTestId('wallet-dialog-wanted')).toHaveTextContent(`Connect the wallet that holds this NFT: ${ACCOUNTS[11].address}`)
  })

  it('shows the server message and disconnects when the link is refused', async () => {
    stubApi([
      { path: '/api/account/walletnonce', body: { nonce: 'n0nce12345678' } },
      { method: 'PUT', path: '/api/account/connectwallet', status: 409, message: 'This wallet is linked to another account' },
    ])
    render()
    await userEvent.click(await screen.findByTestId('wallet-option-devWallet'))
    expect(await screen.findByText('This wallet is linked to another account')).toBeInTheDocument()
    expect(useWalletStore.getState().walletType).toBeNull()
    expect(localStorage.getItem('devWallet.connected')).toBeNull()
  })

  it('does not offer WalletConnect without a project id', async () => {
    stubApi([])
    render()
    await screen.findByTestId('wallet-option-devWallet')
    expect(screen.queryByTestId('wallet-option-walletConnect')).toBeNull()
    expect(screen.getByTestId('wallet-option-coinbaseWalletSDK')).toBeInTheDocument()
  })
})
