import Cookies from 'js-cookie'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, useSession } from '@/lib/auth'
import { useWalletStore } from '@/lib/wallet-store'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { TRENDING_CACHE_KEY } from '../api/trending-nfts'
import { FALLBACK_CONFIG, useConfigStore } from '@/lib/app-config'
import { prefetch } from '../prefetch'
import { LandingPage } from './landing-page'

const nft = (i: number) => ({
  _id: `nft${i}`,
  nftTokenId: String(i + 1),
  formOfSale: 'FIXEDPRICE',
  file: `/ipfs/cid${i}`,
  title: i === 0 ? 'A very long title for an NFT' : `Item ${i}`,
  fixedPrice: 1.5,
  creator: { userId: 'c', username: 'creator', fullName: 'Cre Ator', avatar: '' },
  currentOwner: { userId: 'o', username: 'ownerperson', fullName: 'Own Er', avatar: '' },
  totalLikes: i,
  isLiked: false,
  updatedAt: new Date().toISOString(),
})
const page = (count: number) => ({ data: Array.from({ length: count }, (_, i) => nft(i)), currentPage: 1, lastPage: true, totalItems: count })

describe('landing page', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
    useWalletStore.setState({ dialogOpen: false, walletType: null, walletAddress: null })
  })

  it('shows the hero, loads 6 trending fixed-price NFTs into the deck and caches them', async () => {
    const api = stubApi([
      { path: '/api/nft/trendingnfts', body: page(6) },
      { path: '/api/getmarketplacestatistics', body: { totalNftMinted: 10, totalSeller: 3, totalNftSold: 4 } },
    ])
    renderPage(<LandingPage />)
    expect(screen.getByRole('heading', { name: 'Collect & sell your awesome NFTs' })).toBeInTheDocument()
    expect(await screen.findAllByTestId('deck-card')).toHaveLength(6)
    expect(screen.getByText('A very long tit...')).toBeInTheDocument()
    expect(screen.getAllByText('owner...').length).toBe(6)
    expect(api.mock.calls.map(([url]) => url)).toContain('/api/nft/trendingnfts?page=1&limit=6&formOfSale=FIXEDPRICE')
    expect(JSON.parse(localStorage.getItem(TRENDING_CACHE_KEY) ?? '[]')).toHaveLength(6)
    expect(await screen.findByText('10')).toBeInTheDocument()
  })

  it('takes the calls warmed during the startup loader instead of asking again, the top card preloaded', async () => {
    useConfigStore.getState().setConfig(FALLBACK_CONFIG)
    const api = stubApi([
      { path: '/api/nft/trendingnfts', body: page(6) },
      { path: '/api/getmarketplacestatistics', body: { totalNftMinted: 10, totalSeller: 3, totalNftSold: 4 } },
      { path: '/api/trendingcreators', body: { data: [], currentPage: 1, lastPage: true, totalItems: 0 } },
    ])
    prefetch()
    renderPage(<LandingPage />)
    expect(await screen.findAllByTestId('deck-card')).toHaveLength(6)
    expect(await screen.findByText('10')).toBeInTheDocument()
    const urls = api.mock.calls.map(([url]) => String(url))
    expect(urls.sort()).toEqual([
      '/api/getmarketplacestatistics',
      '/api/nft/trendingnfts?page=1&limit=10&formOfSale=AUCTION',
      '/api/nft/trendingnfts?page=1&limit=10&formOfSale=FIXEDPRICE',
      '/api/nft/trendingnfts?page=1&limit=6&formOfSale=FIXEDPRICE',
      '/api/trendingcreators?page=1&limit=10&type=SELLER',
    ])
    await waitFor(() => expect(document.head.querySelector('link[rel="preload"][as="image"]')).not.toBeNull())
    const link = document.head.querySelector<HTMLLinkElement>('link[rel="preload"][as="image"]')!
    // The card on top of the deck: the last of the six.
    expect(link.getAttribute('href')).toBe('/ipfs/cid5?w=480')
    expect(link.getAttribute('imagesizes')).toBe('340px')
    link.remove()
  })

  it('does not show the deck with fewer than 6 NFTs', async () => {
    stubApi([{ path: '/api/nft/trendingnfts', body: page(5) }])
    renderPage(<LandingPage />)
    expect(await screen.findByTestId('deck-placeholder')).toBeInTheDocument()
    expect(screen.queryAllByTestId('deck-card')).toHaveLength(0)
    expect(localStorage.getItem(TRENDING_CACHE_KEY)).toBeNull()
  })

  it('shows the cached deck at once', () => {
    localStorage.setItem(TRENDING_CACHE_KEY, JSON.stringify(page(6).data))
    stubApi([])
    renderPage(<LandingPage />)
    expect(screen.getAllByTestId('deck-card')).toHaveLength(6)
  })

  it('opens /explore/{id} when a card is clicked', async () => {
    stubApi([{ path: '/api/nft/trendingnfts', body: page(6) }])
    renderPage(<LandingPage />)
    const cards = await screen.findAllByTestId('deck-card')
    await userEvent.click(cards[5])
    expect(await screen.findByTestId('location')).toHaveTextContent('/explore/nft5')
  })

  it('Create: a visitor goes to sign-in with callbackURL=/create-asset', async () => {
    stubApi([])
    renderPage(<LandingPage />)
    await userEvent.click(screen.getByTestId('landing-create'))
    expect(await screen.findByTestId('location')).toHaveTextContent('/authentication/sign-in?callbackURL=%2Fcreate-asset')
  })

  it('Create: a signed-in user without a wallet gets the wallet dialog', async () => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    useSession.setState({ token: 'tok' })
    stubApi([])
    renderPage(<LandingPage />)
    await userEvent.click(screen.getByTestId('landing-create'))
    await waitFor(() => expect(useWalletStore.getState().dialogOpen).toBe(true))
    expect(screen.queryByTestId('location')).toBeNull()
  })
})
