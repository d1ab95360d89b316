import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { RankedCollection } from '@/lib/insight/api'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { readChoice, StatsPage } from './stats-page'

const row = (rank: number, title: string, extra: Partial<RankedCollection> = {}): RankedCollection => ({
  rank, collectionId: `c${rank}`, title, image: '', floorPrice: '1', volume: '10', previousVolume: '5', change: 100, sales: 2, owners: 3, items: 4, listed: 1, listedShare: 0.25, ...extra,
})

/** The query of each ranking call, in order. */
const queries = (api: ReturnType<typeof stubApi>) =>
  api.mock.calls.map(([u]) => new URL(String(u), 'http://x')).filter((u) => u.pathname === '/api/stats/collections').map((u) => Object.fromEntries(u.searchParams))

describe('the stats page', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('reads its choice from the URL, with defaults for anything else', () => {
    expect(readChoice(new URLSearchParams(''))).toEqual({ period: '24H', sort: 'VOLUME', ascending: false })
    expect(readChoice(new URLSearchParams('period=7D&sort=FLOOR&order=asc'))).toEqual({ period: '7D', sort: 'FLOOR', ascending: true })
    expect(readChoice(new URLSearchParams('period=1Y&sort=PRICE'))).toEqual({ period: '24H', sort: 'VOLUME', ascending: false })
    expect(readChoice(new URLSearchParams('sort=TITLE'))).toEqual({ period: '24H', sort: 'TITLE', ascending: true })
  })

  it('ranks by volume over 24 hours first, then sorts by the column clicked, and the other way on a second click', async () => {
    const api = stubApi([
      { path: '/api/stats/collections', body: { data: [row(1, 'Birds', { change: 12.5 }), row(2, 'Shells', { floorPrice: null, change: null })], currentPage: 1, lastPage: true, totalItems: 2 } },
    ])
    renderPage(<StatsPage />, { path: '/stats', at: '/stats' })
    const rows = await screen.findAllByTestId('stats-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByTestId('stats-title')).toHaveAttribute('href', '/collection/c1')
    expect(within(rows[0]).getByTestId('stats-change')).toHaveTextContent('+12.5%')
    expect(within(rows[1]).getByTestId('stats-floor')).toHaveTextContent('—')
    expect(within(rows[1]).getByTestId('stats-change')).toHaveTextContent('—')
    expect(queries(api)[0]).toEqual({ period: '24H', sortBy: 'VOLUME', orderBy: '0', limit: '20', page: '1' })
    expect(screen.getByTestId('sort-VOLUME').closest('th')).toHaveAttribute('aria-sort', 'descending')

    await userEvent.click(screen.getByTestId('sort-OWNERS'))
    await waitFor(() => expect(queries(api).at(-1)).toMatchObject({ sortBy: 'OWNERS', orderBy: '0' }))
    expect(screen.getByTestId('sort-OWNERS').closest('th')).toHaveAttribute('aria-sort', 'descending')
    expect(screen.getByTestId('sort-VOLUME').closest('th')).toHaveAttribute('aria-sort', 'none')

    await userEvent.click(screen.getByTestId('sort-OWNERS'))
    await waitFor(() => expect(queries(api).at(-1)).toMatchObject({ sortBy: 'OWNERS', orderBy: '1' }))
    expect(screen.getByTestId('sort-OWNERS').closest('th')).toHaveAttribute('aria-sort', 'ascending')

    await userEvent.click(screen.getByTestId('sort-TITLE'))
    await waitFor(() => expect(queries(api).at(-1)).toMatchObject({ sortBy: 'TITLE', orderBy: '1' }), { timeout: 5000 })

    await userEvent.click(screen.getByTestId('period-7D'))
    await waitFor(() => expect(queries(api).at(-1)).toMatchObject({ period: '7D', sortBy: 'TITLE', orderBy: '1' }))
    expect(screen.getByTestId('period-7D')).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByTestId('sort-VOLUME')).toHaveTextContent('Volume (7 days)')
  })

  it('says so when there is no collection', async () => {
    stubApi([{ path: '/api/stats/collections', body: { data: [], currentPage: 1, lastPage: true, totalItems: 0 } }])
    renderPage(<StatsPage />, { path: '/stats', at: '/stats' })
    expect(await screen.findByTestId('empty-message')).toHaveTextContent('No collections yet.')
  })
})
