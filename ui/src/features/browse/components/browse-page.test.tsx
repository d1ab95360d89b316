import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { stubApi } from '@/testing/fetch'
import { nftFixture, page } from '@/testing/nft'
import { renderRoutes } from '@/testing/render'
import { FALLBACK_CONFIG, useConfigStore } from '@/lib/app-config'
import { prefetch } from '../prefetch'
import { SEARCH_DEBOUNCE_MS } from '@/components/search-box'
import { BrowsePage } from './browse-page'

const routes = [
  { path: '/explore', element: <BrowsePage formOfSale="FIXEDPRICE" /> },
  { path: '/auction', element: <BrowsePage formOfSale="AUCTION" /> },
]
const categories = { path: '/api/misc/category', body: [{ id: 'c1', categoryName: 'Art' }, { id: 'c2', categoryName: 'Music' }] }
const nfts = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => nftFixture({ _id: `${prefix}${i}`, title: `${prefix} item ${i}` }))
const exploreCalls = (api: ReturnType<typeof stubApi>) => api.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/nft/explore/'))

/** Lets the test scroll the grid's sentinel into view. */
let observed: ((entries: { isIntersecting: boolean }[]) => void)[] = []
class IntersectionObserverStub {
  constructor(private readonly callback: (entries: { isIntersecting: boolean }[]) => void) {}
  observe() {
    observed.push(this.callback)
  }
  disconnect() {
    observed = observed.filter((c) => c !== this.callback)
  }
}
const scrollToBottom = () => act(() => observed.forEach((c) => c([{ isIntersecting: true }])))

describe('browse pages', () => {
  beforeEach(() => {
    observed = []
    vi.stubGlobal('IntersectionObserver', IntersectionObserverStub)
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('asks for the list the URL describes, so a reloaded or shared link shows the same list', async () => {
    const api = stubApi([categories, { path: '/api/nft/explore/', body: page(nfts('a', 2)) }])
    renderRoutes(routes, '/explore?type=c1&sortBy=PRICE&orderBy=1&search=cat')
    expect(await screen.findByText('a item 1')).toBeInTheDocument()
    expect(exploreCalls(api)).toEqual(['/api/nft/explore/?nftCategory=c1&page=1&limit=9&formOfSale=FIXEDPRICE&sortBy=PRICE&orderBy=1&search=cat'])
    expect(screen.getByRole('searchbox')).toHaveValue('cat')
    expect(screen.getByTestId('sort-menu')).toHaveTextContent('Price low to high')
    expect(await screen.findByRole('tab', { name: 'Art' })).toHaveAttribute('aria-selected', 'true')
  })

  it('takes the first page warmed during the startup loader instead of asking again, its first pictures preloaded', async () => {
    useConfigStore.getState().setConfig(FALLBACK_CONFIG)
    const pictured = nfts('w', 4).map((nft, i) => ({ ...nft, file: `/ipfs/bafyimage${i}` }))
    const api = stubApi([categories, { path: '/api/nft/explore/', body: page(pictured) }])
    const at = '/auction?type=c2&sortBy=POPULARITY&search=owl'
    prefetch(new URL(at, window.location.origin))
    renderRoutes(routes, at)
    expect(await screen.findByText('w item 3')).toBeInTheDocument()
    expect(exploreCalls(api)).toEqual(['/api/nft/explore/?nftCategory=c2&page=1&limit=9&formOfSale=AUCTION&sortBy=POPULARITY&orderBy=0&search=owl'])
    await waitFor(() => expect(document.head.querySelectorAll('link[rel="preload"][as="image"]')).toHaveLength(3))
    const link = document.head.querySelector<HTMLLinkElement>('link[rel="preload"][as="image"]')!
    expect(link.getAttribute('imagesrcset')).toContain('/ipfs/bafyimage0?w=480 480w')
    document.head.querySelectorAll('link[rel="preload"]').forEach((l) => l.remove())
  })

  it('shows six skeletons while the first page loads', async () => {
    stubApi([categories])
    vi.stubGlobal('fetch', vi.fn(() => new Promise(() => {})))
    renderRoutes(routes, '/auction?type=all')
    expect(await screen.findAllByTestId('card-skeleton')).toHaveLength(6)
  })

  it('writes a new category into the URL and starts again from page 1', async () => {
    const api = stubApi([
      categories,
      { path: /nftCategory=c2/, body: page(nfts('music', 1)) },
      { path: '/api/nft/explore/', body: page(nfts('all', 3)) },
    ])
    const { router } = renderRoutes(routes, '/explore?type=all')
    await screen.findByText('all item 2')
    fireEvent.click(await screen.findByRole('tab', { name: 'Music' }))
    expect(await screen.findByText('music item 0')).toBeInTheDocument()
    expect(screen.queryByText('all item 2')).not.toBeInTheDocument()
    expect(router.state.location.search).toBe('?type=c2')
    expect(exploreCalls(api).at(-1)).toBe('/api/nft/explore/?nftCategory=c2&page=1&limit=9&formOfSale=FIXEDPRICE&sortBy=DATE&orderBy=0')
  })

  it('writes the search into the URL after a pause in typing', async () => {
    const api = stubApi([categories, { path: '/api/nft/explore/', body: page(nfts('x', 1)) }])
    const { router } = renderRoutes(routes, '/explore')
    await screen.findByText('x item 0')
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'harbour' } })
    await waitFor(() => expect(router.state.location.search).toBe('?search=harbour'), { timeout: SEARCH_DEBOUNCE_MS + 2000 })
    await waitFor(() => expect(exploreCalls(api).at(-1)).toContain('&search=harbour'))
  })

  it('appends the page after currentPage when scrolled to the bottom, and stops at lastPage', async () => {
    const api = stubApi([
      categories,
      { path: /page=2&/, body: page(nfts('second', 2), 2, true) },
      { path: /page=1&/, body: page(nfts('first', 9), 1, false) },
    ])
    renderRoutes(routes, '/auction')
    await screen.findByText('first item 8')
    expect(exploreCalls(api)[0]).toContain('formOfSale=AUCTION')
    scrollToBottom()
    expect(await screen.findByText('second item 1')).toBeInTheDocument()
    expect(screen.getAllByTestId('nft-card')).toHaveLength(11)
    scrollToBottom()
    await new Promise((r) => setTimeout(r, 50))
    expect(exploreCalls(api).map((url) => new URLSearchParams(url.split('?')[1]).get('page'))).toEqual(['1', '2'])
  })

  it('reloads the loaded pages when the user comes back to the list', async () => {
    const api = stubApi([categories, { path: '/api/nft/explore/', body: page(nfts('x', 1)) }])
    const { router } = renderRoutes([...routes, { path: '/elsewhere', element: <p>elsewhere</p> }], '/explore')
    await screen.findByText('x item 0')
    await act(() => router.navigate('/elsewhere'))
    await screen.findByText('elsewhere')
    await act(() => router.navigate(-1))
    await screen.findByText('x item 0')
    await waitFor(() => expect(exploreCalls(api)).toHaveLength(2))
  })

  it('says so when nothing matches', async () => {
    stubApi([categories, { path: '/api/nft/explore/', body: page([]) }])
    renderRoutes(routes, '/explore?search=zzz')
    expect(await screen.findByText('No Nfts found')).toBeInTheDocument()
  })
})
