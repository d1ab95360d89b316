import { act, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse } from '@/testing/fetch'
import { nftFixture } from '@/testing/nft'
import { fetchableUrl, isIpfs, useMetadataVerification } from './metadata'

const ID = '80001-7'

/** Answers the metadata state calls with `states` in turn (the last repeats) and an IPFS gateway. */
function serve(states: string[], ipfsDocument: unknown = {}) {
  let gets = 0
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    if (url === `/api/nft/${ID}/metadata/refresh` && init?.method === 'POST') return jsonResponse(200, { status: 'PENDING' })
    if (url === `/api/nft/${ID}/metadata`) return jsonResponse(200, { status: states[Math.min(gets++, states.length - 1)] })
    if (url.startsWith('/ipfs/')) return new Response(JSON.stringify(ipfsDocument), { status: 200 })
    return jsonResponse(404, null, 'Not found')
  })
  vi.stubGlobal('fetch', mock)
  return mock
}

const fetched = (mock: ReturnType<typeof serve>) => mock.mock.calls.map(([input]) => String(input))

describe('metadata verification of a token URI chosen by its minter', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('knows a file on IPFS by any gateway and fetches it through ours', () => {
    expect(isIpfs('ipfs://bafymeta')).toBe(true)
    expect(isIpfs('https://minter.example/ipfs/bafymeta/1.json')).toBe(true)
    expect(isIpfs('https://minter.example/meta/1.json')).toBe(false)
    expect(isIpfs('http://127.0.0.1:8545/')).toBe(false)
    expect(fetchableUrl('https://minter.example/ipfs/bafymeta/1.json', '/ipfs/')).toBe('/ipfs/bafymeta/1.json')
  })

  it('never fetches an https token URI from the page: the server says whether it read it', async () => {
    const mock = serve(['FETCHED'])
    const nft = nftFixture({ _id: ID, metadataUrl: '', tokenUri: 'https://minter.example/meta/7.json' })
    const { result } = renderHook(() => useMetadataVerification(nft, '/ipfs/'))
    await waitFor(() => expect(result.current.state).toBe('verified'))
    expect(fetched(mock)).toEqual([`/api/nft/${ID}/metadata`])
  })

  it('a loopback token URI the server refused is failed, and the page asked only the server', async () => {
    const mock = serve(['FAILED'])
    const nft = nftFixture({ _id: ID, metadataUrl: '', tokenUri: 'http://127.0.0.1:8545/secret' })
    const { result } = renderHook(() => useMetadataVerification(nft, '/ipfs/'))
    await waitFor(() => expect(result.current.state).toBe('failed'))
    expect(fetched(mock).every((url) => url.startsWith('/api/'))).toBe(true)
  })

  it('checking again asks the server to read again and waits for its read', async () => {
    const mock = serve(['FAILED', 'PENDING', 'FETCHED'])
    const nft = nftFixture({ _id: ID, metadataUrl: '', tokenUri: 'https://minter.example/meta/7.json' })
    const { result } = renderHook(() => useMetadataVerification(nft, '/ipfs/'))
    await waitFor(() => expect(result.current.state).toBe('failed'))
    let outcome: Awaited<ReturnType<typeof result.current.verify>> | undefined
    await act(async () => {
      outcome = await result.current.verify()
    })
    expect(outcome?.state).toBe('verified')
    expect(result.current.state).toBe('verified')
    const calls = fetched(mock)
    expect(calls.indexOf(`/api/nft/${ID}/metadata/refresh`)).toBe(1)
    expect(calls.slice(2)).toEqual([`/api/nft/${ID}/metadata`, `/api/nft/${ID}/metadata`])
  })

  it('metadata on IPFS named by another gateway is fetched through ours and compared', async () => {
    const nft = nftFixture({ _id: ID, metadataUrl: 'https://minter.example/ipfs/bafymeta', title: 'Fox', description: 'A fox', file: '/ipfs/bafyimage', properties: [] })
    const mock = serve([], { name: 'Fox', description: 'A fox', image: 'ipfs://bafyimage', attributes: [] })
    const { result } = renderHook(() => useMetadataVerification(nft, '/ipfs/'))
    await waitFor(() => expect(result.current.state).toBe('verified'))
    expect(fetched(mock)).toEqual(['/ipfs/bafymeta'])
  })
})
