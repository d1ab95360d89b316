import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { UiProvider } from '@/components/ui/provider'
import { Toaster } from '@/components/ui/toaster'
import { useWalletConnection } from '@/lib/wallet-connection'

// The switch itself (switch, or add the chain on 4902) is the chain runtime's: chain-runtime.test.ts.
const switchNetwork = vi.hoisted(() => vi.fn())
vi.mock('@/lib/chain-runtime', () => ({ startChainRuntime: async () => ({ switchNetwork }) }))

const { NetworkBanner } = await import('./network-banner')

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const renderBanner = () =>
  render(
    <UiProvider>
      <NetworkBanner />
      <Toaster />
    </UiProvider>,
  )

describe('network banner', () => {
  afterEach(() => {
    useWalletConnection.setState({ status: 'disconnected', address: undefined, chainId: undefined })
    switchNetwork.mockReset()
  })

  it('tells the user about the other network and asks the wallet to switch to the app chain', async () => {
    useWalletConnection.setState({ status: 'connected', address: ADDRESS, chainId: 1 })
    switchNetwork.mockResolvedValue(undefined)
    renderBanner()
    expect(screen.getByText('You are connected to a different Network. Our Application is running on Matic Testnet')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Click here' }))
    await waitFor(() => expect(switchNetwork).toHaveBeenCalledWith(80001))
  })

  it('says so when the wallet refuses to switch', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    useWalletConnection.setState({ status: 'connected', address: ADDRESS, chainId: 1 })
    switchNetwork.mockRejectedValue(new Error('User rejected the request.'))
    renderBanner()
    await userEvent.click(screen.getByRole('button', { name: 'Click here' }))
    expect(await screen.findByText('The network could not be switched.')).toBeInTheDocument()
  })

  it('is hidden on chain 80001 and without a connected wallet', () => {
    useWalletConnection.setState({ status: 'connected', address: ADDRESS, chainId: 80001 })
    const { unmount } = renderBanner()
    expect(screen.queryByTestId('network-banner')).toBeNull()
    unmount()
    useWalletConnection.setState({ status: 'disconnected', address: undefined, chainId: 1 })
    renderBanner()
    expect(screen.queryByTestId('network-banner')).toBeNull()
  })
})
