import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Nft } from '@/lib/nft/types'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { HomeSliders } from './home-sliders'

const person = { userId: 'u2', username: 'trinity', fullName: 'Trinity', avatar: '' }
const nft = (i: number, formOfSale: 'AUCTION' | 'FIXEDPRICE'): Nft => ({
  _id: `n${i}`, nftTokenId: String(i), file: `/ipfs/${i}.png`, title: `${formOfSale} piece ${i}`, description: '', nftCategory: '1', metadataUrl: '', fixedPrice: '2', formOfSale,
  contractAddress: '0x0', contractType: 'ERC721', coinName: 'MATIC', totalLikes: 1, isLiked: false, isBookmarked: false, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
  currentAuction: formOfSale === 'AUCTION' ? { auctionId: `a${i}`, auctionStartPrice: '1', auctionBuyNowPrice: '2', auctionHighestBid: '0', auctionEndHours: new Date(Date.now() + 3600e3).toISOString(), auctionEnded: false } : null,
  highestBid: '0', royalty: [], properties: [], transactionHash: '', creator: person, currentOwner: person,
})
const page = <T,>(data: T[]) => ({ data, currentPage: 1, lastPage: true, totalItems: data.length })

describe('home sliders', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('fill Live Auctions, Trending NFTs and Trending Sellers from their calls, with View all links', async () => {
    const api = stubApi([
      { path: /\/api\/nft\/trendingnfts\?.*formOfSale=AUCTION/, body: page([nft(1, 'AUCTION'), nft(2, 'AUCTION')]) },
      { path: /\/api\/nft\/trendingnfts\?.*formOfSale=FIXEDPRICE/, body: page([nft(3, 'FIXEDPRICE')]) },
      { path: '/api/trendingcreators', body: page([{ userId: 'u2', username: 'trinity', fullName: 'Trinity', avatar: '', coverImage: '', info: 'Glass', totalSold: 3, totalCollection: 1, totalCreations: 4 }]) },
    ])
    renderPage(<HomeSliders />)
    const auctions = screen.getByTestId('slider-auctions')
    expect(await within(auctions).findAllByTestId('nft-card')).toHaveLength(2)
    const trending = screen.getByTestId('slider-trending')
    expect(await within(trending).findByText('FIXEDPRICE piece 3')).toBeInTheDocument()
    const sellers = screen.getByTestId('slider-sellers')
    expect(await within(sellers).findByText('@trinity')).toBeInTheDocument()
    expect(within(sellers).getByRole('link', { name: 'Trinity' })).toHaveAttribute('href', '/user/u2')

    expect(within(auctions).getByRole('link', { name: /View all/ })).toHaveAttribute('href', '/auction?type=all')
    expect(within(trending).getByRole('link', { name: /View all/ })).toHaveAttribute('href', '/explore?type=all')
    expect(within(sellers).getByRole('link', { name: /View all/ })).toHaveAttribute('href', '/trending-sellers')

    const asked = api.mock.calls.map(([u]) => String(u))
    expect(asked).toContain('/api/nft/trendingnfts?page=1&limit=10&formOfSale=AUCTION')
    expect(asked).toContain('/api/nft/trendingnfts?page=1&limit=10&formOfSale=FIXEDPRICE')
    expect(asked).toContain('/api/trendingcreators?page=1&limit=10&type=SELLER')
  })

  it('show three skeletons while loading, then their empty messages', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const api = stubApi([
      { path: '/api/nft/trendingnfts', body: page([]) },
      { path: '/api/trendingcreators', body: page([]) },
    ])
    const real = api.getMockImplementation()!
    api.mockImplementation(async (...args) => {
      await gate
      return real(...args)
    })
    renderPage(<HomeSliders />)
    expect(within(screen.getByTestId('slider-auctions')).getAllByTestId('card-skeleton')).toHaveLength(3)
    expect(within(screen.getByTestId('slider-sellers')).getAllByTestId('seller-skeleton')).toHaveLength(3)
    release()
    expect(await within(screen.getByTestId('slider-auctions')).findByText('No Nfts found')).toBeInTheDocument()
    expect(await within(screen.getByTestId('slider-trending')).findByText('No Nfts found')).toBeInTheDocument()
    expect(await within(screen.getByTestId('slider-sellers')).findByText('No Sellers found')).toBeInTheDocument()
    // Nothing to scroll: both arrows are disabled.
    for (const button of within(screen.getByTestId('slider-sellers')).getAllByRole('button', { name: /Previous|Next/ })) expect(button).toBeDisabled()
  })

  it('a failed slider call is only logged and shows the empty message', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    stubApi([
      { path: '/api/nft/trendingnfts', status: 500, message: 'down' },
      { path: '/api/trendingcreators', status: 500, message: 'down' },
    ])
    renderPage(<HomeSliders />)
    expect(await within(screen.getByTestId('slider-sellers')).findByText('No Sellers found')).toBeInTheDocument()
    expect(screen.queryByText('down')).not.toBeInTheDocument()
    expect(log).toHaveBeenCalled()
  })
})
