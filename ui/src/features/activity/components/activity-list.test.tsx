import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useParams } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { FALLBACK_CONFIG, useConfigStore } from '@/lib/app-config'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import type { ActivityItem } from '../api/activity'
import { ActivityList, sides } from './activity-list'
import { ActivityPage } from './activity-page'

const bob = { userId: 'u2', username: 'bob', fullName: 'Bob B', avatar: '' }
const hash = (n: number) => `0x${String(n).repeat(64)}`
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()
const row = (over: Partial<ActivityItem>): ActivityItem => ({
  id: 1,
  kind: 'MINT',
  event: 'MINTED',
  nftId: '80001-1',
  nftTitle: 'Sunset',
  nftFile: '',
  price: null,
  priceWei: null,
  address: '0xa11ce00000000000000000000000000000000001',
  user: null,
  counterpart: null,
  counterpartUser: null,
  transactionHash: hash(1),
  timestamp: minutesAgo(90),
  ...over,
})
const rows: ActivityItem[] = [
  row({
    id: 3,
    kind: 'SALE',
    event: 'PURCHASED',
    price: '2.5',
    priceWei: '2500000000000000000',
    address: '0xb0b0000000000000000000000000000000000002',
    user: bob,
    counterpart: '0xa11ce00000000000000000000000000000000001',
    transactionHash: hash(3),
    timestamp: minutesAgo(5),
  }),
  row({ id: 2, kind: 'LIST', event: 'PUT_ON_FIXEDSALE', price: '2.5', priceWei: '2500000000000000000', transactionHash: hash(2), timestamp: minutesAgo(30) }),
  row({ id: 1 }),
]
function Versioned() {
  const { v } = useParams()
  return <ActivityList scope={{ nftId: '80001-1' }} showNft={false} version={v} />
}
const page = (data: ActivityItem[], lastPage = true) => ({ data, currentPage: 1, lastPage, totalItems: data.length })

describe('the activity feed', () => {
  afterEach(() => {
    useConfigStore.setState({ config: null })
    vi.restoreAllMocks()
    vi.unstubAllGlobals()
  })

  it('shows each row with its kind, NFT, price, people, time and a link to its transaction', async () => {
    useConfigStore.setState({ config: { ...FALLBACK_CONFIG, explorerUrl: 'https://explorer.example/' } })
    const fetchMock = stubApi([{ path: '/api/activity', body: page(rows) }])
    renderPage(<ActivityPage />, { path: '/activity', at: '/activity' })
    expect(screen.getByRole('heading', { name: 'Activity' })).toBeInTheDocument()

    const items = await screen.findAllByTestId('activity-row')
    expect(items.map((r) => r.getAttribute('data-kind'))).toEqual(['SALE', 'LIST', 'MINT'])
    const sale = items[0]
    expect(within(sale).getAllByTestId('activity-kind')[0]).toHaveTextContent('Sale')
    expect(within(sale).getAllByTestId('activity-nft')[0]).toHaveTextContent('Sunset')
    expect(within(sale).getAllByText(/^2\.500\sMATIC$/).length).toBeGreaterThan(0)
    // From the seller (no account: the short address) to the buyer (Bob, linking to his profile).
    const parties = within(sale).getAllByTestId('activity-party').slice(0, 2)
    expect(parties[0]).toHaveTextContent(/^0xa11c\.\.\.0001$/)
    expect(parties[0].tagName).not.toBe('A')
    expect(parties[1]).toHaveTextContent('bob')
    expect(parties[1]).toHaveAttribute('href', '/user/u2')
    expect(within(sale).getAllByTestId('activity-time')[0]).toHaveTextContent('5 minutes ago')
    expect(within(sale).getAllByTestId('activity-tx')[0]).toHaveAttribute('href', `https://explorer.example/tx/${hash(3)}`)
    expect(within(items[2]).getAllByText('—').length).toBeGreaterThan(0)
    expect(fetchMock.mock.calls[0][0]).toBe('/api/activity?limit=20&page=1')
  })

  it('filters by kind, and says so when a kind has no rows', async () => {
    const fetchMock = stubApi([
      { path: /\/api\/activity\?.*kind=BURN/, body: page([]) },
      { path: /\/api\/activity\?.*kind=SALE/, body: page([rows[0]]) },
      { path: '/api/activity', body: page(rows) },
    ])
    renderPage(<ActivityList />)
    expect(await screen.findAllByTestId('activity-row')).toHaveLength(3)
    await userEvent.click(screen.getByTestId('activity-kind-SALE'))
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(1))
    expect(screen.getByTestId('activity-kind-SALE')).toHaveAttribute('aria-pressed', 'true')
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe('/api/activity?limit=20&kind=SALE&page=1')
    await userEvent.click(screen.getByTestId('activity-kind-BURN'))
    expect(await screen.findByTestId('activity-empty')).toHaveTextContent('No Burns yet.')
  })

  it('narrows to an NFT without repeating it, and leaves transaction links off without an explorer', async () => {
    const fetchMock = stubApi([{ path: '/api/activity', body: page(rows) }])
    renderPage(<ActivityList scope={{ nftId: '80001-1' }} showNft={false} />)
    const items = await screen.findAllByTestId('activity-row')
    expect(fetchMock.mock.calls[0][0]).toBe('/api/activity?limit=20&nftId=80001-1&page=1')
    expect(within(items[0]).queryByTestId('activity-nft')).toBeNull()
    expect(screen.queryByTestId('activity-tx')).toBeNull()
  })

  it('reloads when the NFT it shows changes', async () => {
    const fetchMock = stubApi([{ path: '/api/activity', body: page(rows) }])
    const { router } = renderPage(<Versioned />, { path: '/:v', at: '/1' })
    expect(await screen.findAllByTestId('activity-row')).toHaveLength(3)
    const calls = fetchMock.mock.calls.length
    await router.navigate('/2')
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(calls))
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe('/api/activity?limit=20&nftId=80001-1&page=1')
  })

  it('loads the next page at the end of the list', async () => {
    const observers: IntersectionObserverCallback[] = []
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: IntersectionObserverCallback) {
          observers.push(callback)
        }
        observe() {}
        disconnect() {}
      },
    )
    const fetchMock = stubApi([
      { path: /\/api\/activity\?.*page=2/, body: { ...page([row({ id: 0, event: 'MINTED' })]), currentPage: 2 } },
      { path: '/api/activity', body: page(rows, false) },
    ])
    renderPage(<ActivityList />)
    expect(await screen.findAllByTestId('activity-row')).toHaveLength(3)
    await waitFor(() => expect(observers.length).toBeGreaterThan(0))
    observers.at(-1)?.([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver)
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(4))
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe('/api/activity?limit=20&page=2')
  })

  it('goes from a sale’s seller to its buyer, and from whoever did anything else', () => {
    const sale = sides(rows[0])
    expect([sale.from[0], sale.to?.[0]]).toEqual([rows[0].counterpart, rows[0].address])
    const transfer = sides(row({ kind: 'TRANSFER', address: '0x1', counterpart: '0x2' }))
    expect([transfer.from[0], transfer.to?.[0]]).toEqual(['0x1', '0x2'])
    expect(sides(rows[2]).to).toBeNull()
  })
})
