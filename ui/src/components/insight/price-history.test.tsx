import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CollectionInsight, PricePoint } from '@/lib/insight/api'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { CollectionStatsPanel } from './collection-stats-panel'
import { PriceHistory } from './price-history'

const point = (kind: PricePoint['kind'], price: string, at: number): PricePoint => ({ kind, price, priceWei: '0', at, address: '0xb0b', txHash: '0x1' })

describe('the price history', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('says there is no history, and loads no chart, when the NFT never sold nor had a bid', async () => {
    const api = stubApi([{ path: '/api/nft/pricehistory/80001-7', body: [] }])
    renderPage(<PriceHistory nftId="80001-7" />)
    expect(await screen.findByTestId('price-history-empty')).toHaveTextContent('No sales or bids yet.')
    expect(screen.queryByTestId('price-chart')).not.toBeInTheDocument()
    expect(api).toHaveBeenCalledTimes(1)
    expect(String(api.mock.calls[0][0])).toBe('/api/nft/pricehistory/80001-7')
  })

  it('draws the chart, with its legend, once there are sales and bids', async () => {
    stubApi([{ path: '/api/nft/pricehistory/80001-8', body: [point('BID', '0.5', 1_764_000_000), point('SALE', '1.25', 1_764_086_400)] }])
    renderPage(<PriceHistory nftId="80001-8" />)
    const chart = await screen.findByTestId('price-chart', {}, { timeout: 15000 })
    expect(within(chart).getByText('Sales')).toBeInTheDocument()
    expect(within(chart).getByText('Bids')).toBeInTheDocument()
    expect(screen.queryByTestId('price-history-empty')).not.toBeInTheDocument()
  })

  it('says so when the history cannot be loaded', async () => {
    stubApi([{ path: '/api/nft/pricehistory/80001-9', status: 500, message: 'boom' }])
    renderPage(<PriceHistory nftId="80001-9" />)
    expect(await screen.findByText('This could not be loaded.')).toBeInTheDocument()
  })
})

describe('a collection’s statistics', () => {
  afterEach(() => vi.unstubAllGlobals())

  const insight = (sales: number): CollectionInsight => ({
    stats: {
      collectionId: 'c1', floorPrice: '1.5', floorPriceWei: '1500000000000000000', volume24h: '2', volume7d: '2.5', volumeAll: '3.5',
      sales, owners: 3, items: 4, listed: 1, listedShare: 0.25,
    },
    days: [{ day: 1_764_000_000, volume: sales ? '2' : '0', volumeWei: '0', sales, floor: sales ? '1.5' : null, floorWei: null }],
  })

  it('shows the floor, the volumes, owners, items and the share listed', async () => {
    stubApi([{ path: '/api/stats/collection/c1', body: insight(1) }])
    renderPage(<CollectionStatsPanel collectionId="c1" />)
    expect(await screen.findByTestId('stat-floor')).toHaveTextContent('1.500 MATIC')
    expect(screen.getByTestId('stat-volume-24h')).toHaveTextContent('2.000 MATIC')
    expect(screen.getByTestId('stat-volume')).toHaveTextContent('3.500 MATIC')
    expect(screen.getByText('25%')).toBeInTheDocument()
    expect(await screen.findByTestId('collection-chart', {}, { timeout: 15000 })).toBeInTheDocument()
  })

  it('has no chart before anything was listed or sold', async () => {
    stubApi([{ path: '/api/stats/collection/c1', body: insight(0) }])
    renderPage(<CollectionStatsPanel collectionId="c1" />)
    expect(await screen.findByText('No sales or listings yet.')).toBeInTheDocument()
    expect(screen.queryByTestId('collection-chart')).not.toBeInTheDocument()
  })
})
