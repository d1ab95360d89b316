import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { stubApi } from '@/testing/fetch'
import { renderRoutes } from '@/testing/render'
import { routes } from './router'

describe('discovery routes', () => {
  afterEach(() => vi.unstubAllGlobals())

  it("the footer's Sellers and Creators links land on the trending pages", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    stubApi([{ path: '/api/trendingcreators', body: { data: [], currentPage: 1, lastPage: true, totalItems: 0 } }])
    const { router } = renderRoutes(routes, '/privacy-policy')
    const footer = await screen.findByRole('contentinfo', {}, { timeout: 15000 })
    await userEvent.click(within(footer).getByRole('link', { name: 'Sellers' }))
    expect(await screen.findByRole('heading', { name: 'Trending sellers' }, { timeout: 15000 })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/trending-sellers')
    await userEvent.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Creators' }))
    expect(await screen.findByRole('heading', { name: 'Trending creators' }, { timeout: 15000 })).toBeInTheDocument()
  })

  it('/collections, /collection/{id} and /trending-creators/{id} are pages, not the 404', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    stubApi([
      { path: '/api/collection/browse', body: { data: [], currentPage: 1, lastPage: true, totalItems: 0 } },
      { path: '/api/account/getuserprofile/u2', body: { userId: 'u2', username: 'trinity', fullName: 'Trinity', avatar: '', bio: '', coverImage: '' } },
    ])
    const { router } = renderRoutes(routes, '/collections')
    expect(await screen.findByRole('heading', { name: 'Collections' }, { timeout: 15000 })).toBeInTheDocument()
    await act(() => router.navigate('/collection/c1'))
    expect(await screen.findByTestId('collection-chip', {}, { timeout: 15000 })).toBeInTheDocument()
    await act(() => router.navigate('/trending-creators/u2'))
    expect(await screen.findByText('@trinity', {}, { timeout: 15000 })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Back to the list/ })).toHaveAttribute('href', '/trending-creators')
  })
})
