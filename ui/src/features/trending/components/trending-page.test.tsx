import Cookies from 'js-cookie'
import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, type UserProfile, useSession } from '@/lib/auth'
import type { TrendingUser } from '@/lib/trending-creators'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { TrendingPage } from './trending-page'

const me: UserProfile = {
  userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'Thomas Anderson', mobileNumber: '', avatar: '', bio: '', coverImage: '', authProvider: 'EMAIL', connectedWallet: [],
}
const seller = (userId: string, username: string): TrendingUser => ({
  userId, username, fullName: `${username} full`, avatar: '', coverImage: '', info: `${username} paints`, totalSold: 4, totalCollection: 2, totalCreations: 7,
})

describe('trending sellers and creators', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('asks for sellers 10 at a time and links the signed-in user to /myprofile, others to their page', async () => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    useSession.setState({ token: 'tok', user: me })
    const api = stubApi([
      { path: '/api/account/myprofile', body: me },
      { path: '/api/trendingcreators', body: { data: [seller('u2', 'trinity'), seller('u1', 'neo')], currentPage: 1, lastPage: true, totalItems: 2 } },
    ])
    renderPage(<TrendingPage type="SELLER" />)
    const cards = await screen.findAllByTestId('seller-card')
    expect(cards).toHaveLength(2)
    expect(within(cards[0]).getByRole('link')).toHaveAttribute('href', '/user/u2')
    expect(within(cards[1]).getByRole('link')).toHaveAttribute('href', '/myprofile')
    expect(within(cards[0]).getByText('@trinity')).toBeInTheDocument()
    expect(within(cards[0]).getByText('trinity paints')).toBeInTheDocument()
    expect(within(cards[0]).getByText('7')).toBeInTheDocument()
    const url = new URL(String(api.mock.calls.find(([u]) => String(u).startsWith('/api/trendingcreators'))![0]), 'http://x')
    expect(Object.fromEntries(url.searchParams)).toEqual({ type: 'SELLER', page: '1', limit: '10' })
  })

  it('shows eight skeletons while loading, then No Data for creators when there are none', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const api = stubApi([{ path: '/api/trendingcreators', body: { data: [], currentPage: 1, lastPage: true, totalItems: 0 } }])
    const real = api.getMockImplementation()!
    api.mockImplementation(async (...args) => {
      await gate
      return real(...args)
    })
    renderPage(<TrendingPage type="CREATOR" />)
    expect(await screen.findAllByTestId('seller-skeleton')).toHaveLength(8)
    release()
    expect(await screen.findByText('No Data')).toBeInTheDocument()
    expect(String(api.mock.calls[0][0])).toContain('type=CREATOR')
  })

  it('a failed page shows the server message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    stubApi([{ path: '/api/trendingcreators', status: 500, message: 'Ranking unavailable' }])
    renderPage(<TrendingPage type="SELLER" />)
    expect(await screen.findByText('Ranking unavailable')).toBeInTheDocument()
  })
})
