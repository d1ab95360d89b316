import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import type { NftMetadataState } from '../api/nft-metadata'
import { useNftDetail } from '@/lib/nft/api'
import { MetadataState } from './metadata-state'

/** The page's detail hook beside the state, as on the NFT page. */
function WithDetail() {
  const { data } = useNftDetail(ID)
  return (
    <>
      <div data-testid="title">{(data as { title?: string } | undefined)?.title ?? ''}</div>
      <MetadataState nftId={ID} />
    </>
  )
}

const notify = vi.hoisted(() => vi.fn())
vi.mock('@/components/ui/toaster', async (importOriginal) => ({ ...(await importOriginal<typeof import('@/components/ui/toaster')>()), notify }))

const ID = '80001-7'
const state = (overrides: Partial<NftMetadataState>): NftMetadataState => ({
  status: 'FAILED',
  reason: 'metadata: attributes[0].value must be a string, number or boolean',
  tokenUri: 'ipfs://bafkreimeta',
  attempts: 1,
  nextAttemptAt: null,
  updatedAt: '2026-11-26T07:00:00Z',
  ...overrides,
})

/** The metadata calls answered from `states` in turn (the last one repeats); `refresh` answers the POST. */
function serve(states: NftMetadataState[], refresh: { status: number; body: unknown } = { status: 200, body: state({ status: 'PENDING', reason: '', attempts: 0 }) }) {
  let gets = 0
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    if (url === `/api/nft/${ID}/metadata/refresh` && init?.method === 'POST') return jsonResponse(refresh.status, refresh.body, refresh.status === 429 ? 'Too many requests' : '')
    if (url === `/api/nft/${ID}/metadata`) return jsonResponse(200, states[Math.min(gets++, states.length - 1)])
    if (url === `/api/nft/detail/${ID}`) return jsonResponse(200, { _id: ID, title: gets > 1 ? 'Script Fox' : '' })
    return jsonResponse(404, null, 'Not found')
  })
  vi.stubGlobal('fetch', mock)
  return mock
}

describe('MetadataState', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    notify.mockReset()
  })

  it('shows a failure with its reason and the token URI, and refreshing reads again until the title is there', async () => {
    const fetched = state({ status: 'FETCHED', reason: '', attempts: 1 })
    serve([state({}), fetched])
    renderPage(<WithDetail />)
    const box = await screen.findByTestId('metadata-state')
    expect(box).toHaveAttribute('data-status', 'FAILED')
    expect(box).toHaveTextContent('The metadata could not be read')
    expect(screen.getByTestId('metadata-reason')).toHaveTextContent('attributes[0].value must be a string, number or boolean')
    expect(box).toHaveTextContent('Token URI: ipfs://bafkreimeta')

    fireEvent.click(screen.getByTestId('metadata-refresh'))
    await waitFor(() => expect(screen.getByTestId('metadata-state')).toHaveAttribute('data-status', 'PENDING'))
    expect(screen.getByTestId('metadata-state')).toHaveTextContent("Reading this NFT's metadata")
    expect(screen.getByTestId('metadata-refresh')).toBeDisabled()
    // Polled while pending: read now, told by a toast, and the NFT itself is fetched again.
    await waitFor(() => expect(screen.getByTestId('metadata-state')).toHaveAttribute('data-status', 'FETCHED'), { timeout: 5000 })
    expect(notify).toHaveBeenCalledWith('success', 'Metadata refreshed: the title, image and properties are up to date.')
    await waitFor(() => expect(screen.getByTestId('title')).toHaveTextContent('Script Fox'))
  })

  it('tells of a refresh that failed again, with the reason', async () => {
    serve([state({}), state({ reason: 'metadata: not valid JSON' })])
    renderPage(<MetadataState nftId={ID} />)
    fireEvent.click(await screen.findByTestId('metadata-refresh'))
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'The metadata could not be read: metadata: not valid JSON'), { timeout: 5000 })
  })

  it('says to wait when the NFT was refreshed a moment ago (429)', async () => {
    serve([state({})], { status: 429, body: null })
    renderPage(<MetadataState nftId={ID} />)
    fireEvent.click(await screen.findByTestId('metadata-refresh'))
    await waitFor(() => expect(notify).toHaveBeenCalledWith('warning', "This NFT's metadata was refreshed a moment ago. Try again in a minute."))
    expect(screen.getByTestId('metadata-state')).toHaveAttribute('data-status', 'FAILED')
  })

  it('shows when the next attempt is due while retrying', async () => {
    serve([state({ status: 'RETRYING', reason: 'metadata: the server answered HTTP 502', nextAttemptAt: new Date(Date.now() + 120_000).toISOString() })])
    renderPage(<MetadataState nftId={ID} />)
    const box = await screen.findByTestId('metadata-state')
    expect(box).toHaveTextContent('The metadata could not be read yet')
    expect(box).toHaveTextContent('Next attempt in 2 minutes.')
  })

  it('shows nothing for an NFT its creator described here', async () => {
    const api = serve([state({ status: 'CREATOR', reason: '' })])
    renderPage(<MetadataState nftId={ID} />)
    await waitFor(() => expect(api).toHaveBeenCalled())
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByTestId('metadata-state')).toBeNull()
  })
})
