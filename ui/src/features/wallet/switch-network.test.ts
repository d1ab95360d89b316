import { describe, expect, it, vi } from 'vitest'
import { defineChain } from 'viem'
import { switchWalletChain } from './switch-network'

const chain = defineChain({
  id: 80001,
  name: 'Matic Testnet',
  nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})

describe('switchWalletChain', () => {
  it('switches the wallet to the chain', async () => {
    const request = vi.fn().mockResolvedValue(null)
    await switchWalletChain({ getProvider: async () => ({ request }) }, chain)
    expect(request).toHaveBeenCalledTimes(1)
    expect(request).toHaveBeenCalledWith({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x13881' }] })
  })

  it('adds the chain when the wallet answers 4902', async () => {
    const request = vi.fn().mockRejectedValueOnce(Object.assign(new Error('Unrecognized chain'), { code: 4902 })).mockResolvedValue(null)
    await switchWalletChain({ getProvider: async () => ({ request }) }, chain)
    expect(request).toHaveBeenCalledTimes(2)
    expect(request.mock.calls[1][0]).toMatchObject({
      method: 'wallet_addEthereumChain',
      params: [{ chainId: '0x13881', chainName: 'Matic Testnet', nativeCurrency: { symbol: 'MATIC', decimals: 18 }, rpcUrls: ['http://127.0.0.1:8545'] }],
    })
  })

  it('passes other errors on (e.g. the user rejected)', async () => {
    const request = vi.fn().mockRejectedValue(Object.assign(new Error('User rejected'), { code: 4001 }))
    await expect(switchWalletChain({ getProvider: async () => ({ request }) }, chain)).rejects.toThrow('User rejected')
    expect(request).toHaveBeenCalledTimes(1)
  })
})
