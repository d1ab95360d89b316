import Cookies from 'js-cookie'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE } from '@/lib/auth'
import { stubApi } from '@/testing/fetch'

// The chain runtime stands in for wagmi and viem: whether it is started is what these tests see.
const startChainRuntime = vi.hoisted(() => vi.fn())
vi.mock('@/lib/chain-runtime', () => ({ startChainRuntime }))

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
/** jsdom's local storage (a test below hides it behind a throwing getter). */
const realLocalStorage = Object.getOwnPropertyDescriptor(window, 'localStorage')!
const SERVER_CONFIG = { chainId: 80001, chainName: 'Matic Testnet', rpcUrl: 'http://127.0.0.1:1', contractAddress: '', devWallet: false }

/** A fresh app (its modules hold the runtime once started), opened on a page that needs no API. */
async function openApp() {
  vi.resetModules()
  window.history.replaceState({}, '', '/frequently-asked-questions')
  const { createWagmiConfig } = await import('@/lib/wagmi')
  const { FALLBACK_CONFIG } = await import('@/lib/app-config')
  startChainRuntime.mockImplementation(async () => ({ config: createWagmiConfig(FALLBACK_CONFIG), addWalletConnectors: async () => undefined }))
  const stores = {
    ...(await import('@/lib/wallet-store')),
    ...(await import('@/lib/wallet-connection')),
  }
  return { stores, App: (await import('./app')).App }
}

describe('the app shell and the wallet libraries', () => {
  beforeEach(() => {
    stubApi([{ path: '/api/config', body: SERVER_CONFIG }])
  })
  afterEach(() => {
    startChainRuntime.mockReset()
    vi.unstubAllGlobals()
    Object.defineProperty(window, 'localStorage', realLocalStorage)
  })

  it("renders a visitor's first screen without loading them", async () => {
    const { stores, App } = await openApp()
    render(<App />)
    expect(await screen.findByText('Frequently asked questions', {}, { timeout: 10000 })).toBeInTheDocument()
    expect(screen.queryByTestId('storage-notice')).toBeNull()
    expect(stores.useWalletConnection.getState().status).toBe('disconnected')
    expect(stores.chainRequested()).toBe(false)
    expect(startChainRuntime).not.toHaveBeenCalled()
  })

  it('starts them as the app starts when a wallet is remembered (it reconnects)', async () => {
    localStorage.setItem('wallet', JSON.stringify({ state: { walletType: 'Other', walletAddress: ADDRESS, connectorId: 'devWallet' }, version: 0 }))
    const { stores, App } = await openApp()
    expect(stores.useWalletConnection.getState().status).toBe('reconnecting')
    render(<App />)
    await waitFor(() => expect(startChainRuntime).toHaveBeenCalledTimes(1), { timeout: 10000 })
    expect(startChainRuntime.mock.calls[0][0]).toMatchObject({ chainId: 80001, rpcUrl: 'http://127.0.0.1:1' })
  })

  it('shows "Connect wallet" to a signed-in user without them, and starts them when the wallet dialog opens', async () => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    const { App } = await openApp()
    render(<App />)
    const connectWallet = await screen.findByTestId('connect-wallet', {}, { timeout: 10000 })
    await screen.findByText('Frequently asked questions')
    expect(startChainRuntime).not.toHaveBeenCalled()
    await userEvent.click(connectWallet)
    expect(await screen.findByTestId('wallet-option-metaMask', {}, { timeout: 10000 })).toBeInTheDocument()
    expect(startChainRuntime).toHaveBeenCalledTimes(1)
  })

  it('starts with site storage blocked (localStorage throws): the page, and a notice that signing in needs it', async () => {
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('Access is denied for this document.', 'SecurityError')
      },
    })
    const { App } = await openApp()
    render(<App />)
    expect(await screen.findByText('Frequently asked questions', {}, { timeout: 10000 })).toBeInTheDocument()
    expect(screen.getByTestId('storage-notice')).toHaveTextContent('signing in needs them')
    expect(screen.getByTestId('storage-notice')).toHaveAttribute('role', 'status')
  }, 30_000)
})
