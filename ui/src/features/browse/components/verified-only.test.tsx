import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CollectionsPage } from '@/features/collections/components/collections-page'
import { stubApi } from '@/testing/fetch'
import { nftFixture, page } from '@/testing/nft'
import { renderRoutes } from '@/testing/render'
import { BrowsePage } from './browse-page'

const asked = (api: ReturnType<typeof stubApi>, path: string) =>
  api.mock.calls.map(([url]) => new URL(String(url), 'http://x')).filter((url) => url.pathname === path)

describe('Verified only', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('on explore asks for verified creators\' NFTs, keeps it in the URL, and shows their badge', async () => {
    const api = stubApi([
      { path: '/api/misc/category', body: [] },
      { path: /\/api\/nft\/explore\//, body: page([nftFixture({ creator: { ...nftFixture().creator, verified: true } })]) },
      { path: /\/api\/nft\/facets/, body: { total: 1, traits: [] } },
    ])
    const { router } = renderRoutes([{ path: '/explore', element: <BrowsePage formOfSale="FIXEDPRICE" /> }], '/explore')
    await screen.findByTestId('nft-card')
    expect(asked(api, '/api/nft/explore/').every((url) => !url.searchParams.has('verifiedOnly'))).toBe(true)
    const toggle = screen.getByTestId('verified-only')
    expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(toggle)
    await waitFor(() => expect(asked(api, '/api/nft/explore/').some((url) => url.searchParams.get('verifiedOnly') === 'true')).toBe(true))
    expect(router.state.location.search).toContain('verified=1')
    expect(screen.getByTestId('verified-only')).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByRole('img', { name: 'Verified' })).toBeInTheDocument()
  })

  it('on the collections grid asks for verified collections', async () => {
    const api = stubApi([{ path: /\/api\/collection\/browse/, body: page([]) }])
    renderRoutes([{ path: '/collections', element: <CollectionsPage /> }], '/collections?verified=1')
    await waitFor(() => expect(asked(api, '/api/collection/browse').some((url) => url.searchParams.get('verifiedOnly') === 'true')).toBe(true))
    expect(screen.getByTestId('verified-only')).toHaveAttribute('aria-pressed', 'true')
  })
})
