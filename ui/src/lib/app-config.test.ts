import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse } from '@/testing/fetch'
import { FALLBACK_CONFIG, absoluteRpcUrl, fetchAppConfig } from './app-config'

describe('app config', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('resolves a relative RPC path against the origin and keeps absolute URLs', () => {
    expect(absoluteRpcUrl('/rpc', 'http://localhost:8080')).toBe('http://localhost:8080/rpc')
    expect(absoluteRpcUrl('http://127.0.0.1:8545', 'http://localhost:8080')).toBe('http://127.0.0.1:8545')
    expect(absoluteRpcUrl('https://rpc.example.org/v1/', 'http://localhost:8080')).toBe('https://rpc.example.org/v1/')
  })

  it('reads /api/config without a bearer and makes the RPC URL absolute', async () => {
    const fetchMock = vi.fn().mockResolvedValue(
      jsonResponse(200, { ...FALLBACK_CONFIG, rpcUrl: '/rpc', devWallet: true, devMnemonic: 'm' }),
    )
    vi.stubGlobal('fetch', fetchMock)
    const config = await fetchAppConfig()
    expect(fetchMock.mock.calls[0][0]).toBe('/api/config')
    expect(config.rpcUrl).toBe(`${window.location.origin}/rpc`)
    expect(config.devWallet).toBe(true)
  })

  it('falls back to the local defaults (and logs) when the API is missing', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html></html>', { status: 404 })))
    expect(await fetchAppConfig()).toEqual(FALLBACK_CONFIG)
    expect(log).toHaveBeenCalled()
    log.mockRestore()
  })
})
