import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { UiProvider } from '@/components/ui/provider'

const state = vi.hoisted(() => ({
  chainId: 1,
  request: vi.fn(),
}))
vi.mock('wagmi', async (importOriginal) => ({
  ...(await importOriginal<typeof import('wagmi')>()),
  useConnection: () => ({ status: 'connected', chainId: state.chainId, connector: { getProvider: async () => ({ request: state.request }) } }),
  useChains: () => [
    { id: 80001, name: 'Matic Testnet', nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } },
  ],
}))

const { NetworkBanner } = await import('./network-banner')

describe('network banner', () => {
  it('tells the user about the other network and switches, adding the chain on 4902', async () => {
    state.chainId = 1
    state.request.mockReset()
    state.request.mockRejectedValueOnce(Object.assign(new Error('Unrecognized chain'), { code: 4902 })).mockResolvedValue(null)
    render(<UiProvider><NetworkBanner /></UiProvider>)
    expect(screen.getByText('You are connected to a different Network. Our Application is running on Matic Testnet')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Click here' }))
    await waitFor(() => expect(state.request).toHaveBeenCalledTimes(2))
    expect(state.request.mock.calls[0][0]).toEqual({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x13881' }] })
    expect(state.request.mock.calls[1][0].method).toBe('wallet_addEthereumChain')
  })

  it('is hidden on chain 80001', () => {
    state.chainId = 80001
    render(<UiProvider><NetworkBanner /></UiProvider>)
    expect(screen.queryByTestId('network-banner')).toBeNull()
  })
})
