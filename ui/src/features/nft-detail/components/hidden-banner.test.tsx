import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { NftCard } from '@/components/nft/nft-card'
import { useSession } from '@/lib/auth'
import type { Standing } from '@/lib/moderation/api'
import type { Nft } from '@/lib/nft/types'
import { callBody, stubApi } from '@/testing/fetch'
import { nftFixture, page, profileFixture } from '@/testing/nft'
import { renderPage, renderRoutes } from '@/testing/render'
import { NftDetailPage } from './nft-detail-page'

const routes = [{ path: '/nft/:id', element: <NftDetailPage /> }]
const hiddenAt = '2026-11-20T10:00:00Z'
const standing = (overrides: Partial<Standing> = {}): Standing => ({
  hidden: true,
  hiddenReason: 'Reported stolen with evidence',
  hiddenAt,
  appealed: false,
  appealPending: false,
  verified: false,
  ...overrides,
})

function serve(nft: Nft, state: Standing, roles: string[] = [], extra: Parameters<typeof stubApi>[0] = []) {
  return stubApi([
    ...extra,
    { path: `/api/nft/detail/${nft._id}`, body: nft },
    { path: `/api/nft/nftinauction/${nft._id}`, body: [] },
    { path: /\/api\/nft\/bidhistory\//, body: page([]) },
    { path: `/api/nft/nfthistory/${nft._id}`, body: { data: [] } },
    { path: `/api/moderation/nft/${nft._id}`, body: state },
    { path: '/api/moderation/roles', body: { roles } },
  ])
}

describe('A hidden NFT', () => {
  afterEach(() => {
    useSession.setState({ token: undefined, user: null })
    vi.unstubAllGlobals()
  })

  it('shows its owner why and since when, and lets them appeal once', async () => {
    useSession.setState({ token: 'tok', user: profileFixture({ userId: 'u-owner' }) })
    const api = serve(nftFixture(), standing(), [], [{ method: 'POST', path: '/api/moderation/nft/80001-1/appeal', body: { position: 50 } }])
    renderRoutes(routes, '/nft/80001-1')
    const banner = await screen.findByTestId('hidden-banner')
    expect(banner).toHaveTextContent('Hidden by the moderators: Reported stolen with evidence')
    expect(banner).toHaveTextContent('2026')
    expect(banner).toHaveAttribute('data-appeal', 'none')
    // No Report item on one's own NFT.
    expect(screen.queryByTestId('target-menu')).toBeNull()

    await userEvent.click(within(banner).getByTestId('appeal-button'))
    const dialog = await screen.findByTestId('reason-dialog')
    await userEvent.type(within(dialog).getByTestId('reason-text'), 'I painted it; the sketches are on my site')
    // After the appeal the standing says it awaits review.
    const state = standing({ appealed: true, appealPending: true })
    const envelope = api.getMockImplementation()!
    api.mockImplementation(async (input, init) => {
      if (String(input) === '/api/moderation/nft/80001-1' && (init?.method ?? 'GET') === 'GET') {
        return new Response(JSON.stringify({ statuscode: 200, body: state, message: '' }), { status: 200 })
      }
      return envelope(input, init)
    })
    await userEvent.click(within(dialog).getByTestId('reason-submit'))
    const post = api.mock.calls.findIndex(([url, init]) => String(url) === '/api/moderation/nft/80001-1/appeal' && (init as RequestInit).method === 'POST')
    expect(post).toBeGreaterThanOrEqual(0)
    expect(callBody(api, post)).toEqual({ text: 'I painted it; the sketches are on my site' })
    expect(await screen.findByTestId('appeal-pending')).toHaveTextContent('Appeal sent, awaiting review.')
    expect(screen.queryByTestId('appeal-button')).toBeNull()
  })

  it('tells the owner when the appeal was turned down', async () => {
    useSession.setState({ token: 'tok', user: profileFixture({ userId: 'u-owner' }) })
    serve(nftFixture(), standing({ appealed: true, appealPending: false }))
    renderRoutes(routes, '/nft/80001-1')
    expect(await screen.findByTestId('appeal-reviewed')).toHaveTextContent('Your appeal was reviewed; the item stays hidden.')
    expect(screen.queryByTestId('appeal-button')).toBeNull()
  })

  it('shows the staff the banner without an appeal, and offers them Report', async () => {
    useSession.setState({ token: 'tok', user: profileFixture({ userId: 'u-mod' }) })
    serve(nftFixture(), standing(), ['moderator'])
    renderRoutes(routes, '/nft/80001-1')
    const banner = await screen.findByTestId('hidden-banner')
    expect(banner).toHaveTextContent('Only its owner and the staff can see this NFT.')
    expect(within(banner).queryByTestId('appeal-button')).toBeNull()
    expect(screen.getByTestId('target-menu')).toBeInTheDocument()
  })

  it('is a removed page for anyone else (451), with the reason and the public record', async () => {
    stubApi([
      { path: '/api/nft/detail/80001-1', status: 451, message: 'This NFT was hidden by the moderators: Reported stolen with evidence' },
      { path: '/api/moderation/nft/80001-1', body: standing() },
    ])
    renderRoutes(routes, '/nft/80001-1')
    const removed = await screen.findByTestId('nft-removed')
    expect(removed).toHaveTextContent('This item was removed by the moderators')
    expect(await within(removed).findByText(/Removed on/)).toBeInTheDocument()
    expect(screen.getByTestId('removed-reason')).toHaveTextContent('Reason: Reported stolen with evidence')
    expect(screen.getByTestId('removed-transparency')).toHaveAttribute('href', '/transparency')
    expect(screen.queryByTestId('detail-title')).toBeNull()
  })

  it('takes the reason from the 451 message when its standing cannot be read', async () => {
    stubApi([{ path: '/api/nft/detail/80001-1', status: 451, message: 'This NFT was hidden by the moderators: Explicit content' }])
    renderRoutes(routes, '/nft/80001-1')
    expect(await screen.findByTestId('removed-reason')).toHaveTextContent('Reason: Explicit content')
  })

  it('has no banner when it is not hidden, and visitors are not asked about its standing', async () => {
    const api = serve(nftFixture(), standing({ hidden: false }))
    renderRoutes(routes, '/nft/80001-1')
    await screen.findByTestId('detail-title')
    expect(screen.queryByTestId('hidden-banner')).toBeNull()
    expect(api.mock.calls.some(([url]) => String(url) === '/api/moderation/nft/80001-1')).toBe(false)
  })
})

describe('A withheld image', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('becomes a placeholder on a card when the file answers 451', async () => {
    stubApi([])
    renderPage(<NftCard nft={nftFixture({ creator: { ...nftFixture().creator, verified: true } })} />)
    const card = await screen.findByTestId('nft-card')
    expect(within(card).getByRole('img', { name: 'Verified' })).toBeInTheDocument()
    const image = within(card).getByAltText('Sunset over the harbour')
    fireEvent.error(image)
    await waitFor(() => expect(within(card).getByTestId('card-image-placeholder')).toBeInTheDocument())
    expect(within(card).queryByAltText('Sunset over the harbour')).toBeNull()
  })
})
