import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useSession } from '@/lib/auth'
import type { QueueItem, StaffMember } from '@/lib/moderation/api'
import { callBody, stubApi } from '@/testing/fetch'
import { profileFixture } from '@/testing/nft'
import { renderRoutes } from '@/testing/render'
import { ModerationPage } from './moderation-page'

const hour = 3600 * 1000
const ago = (ms: number) => new Date(Date.now() - ms).toISOString()

const reported: QueueItem = {
  targetKind: 'nft',
  targetId: '80001-7',
  title: 'Harbour at dusk',
  image: '/ipfs/bafyharbour',
  standing: { hidden: false, hiddenReason: null, hiddenAt: null, appealed: false, appealPending: false, verified: false },
  appeal: null,
  waitingSince: ago(5 * hour),
  openReports: [
    { reportId: 'r1', reason: 'STOLEN', text: 'Copied from my gallery', reporterId: 'u-bob', reporterUsername: 'bob_b', filedAt: ago(5 * hour), state: 'OPEN', reporterDismissed: 0, reporterMuted: false },
    { reportId: 'r2', reason: 'SCAM', text: '', reporterId: 'u-eve', reporterUsername: 'eve_e', filedAt: ago(2 * hour), state: 'OPEN', reporterDismissed: 3, reporterMuted: false },
  ],
  pastReports: [{ reportId: 'r0', reason: 'SPAM', text: 'Old', reporterId: 'u-al', reporterUsername: 'al_a', filedAt: ago(90 * hour), state: 'DISMISSED', reporterDismissed: 1, reporterMuted: false }],
  decisions: [
    { position: 12, targetKind: 'nft', targetId: '80001-7', decision: 'DISMISS', moderator: 'mia_m', reason: 'Not spam', reports: 1, at: ago(80 * hour), targetTitle: 'Harbour at dusk', targetHidden: false },
  ],
}

const appealed: QueueItem = {
  ...reported,
  targetId: '80001-9',
  title: 'Night market',
  standing: { hidden: true, hiddenReason: 'Stolen artwork', hiddenAt: ago(30 * hour), appealed: true, appealPending: true, verified: false },
  appeal: 'I painted it myself; here are the sketches.',
  openReports: [],
  pastReports: [],
  decisions: [],
}

const staff: StaffMember[] = [
  { userId: 'u-me', username: 'ada_lumen', roles: ['admin'], since: ago(100 * hour) },
  { userId: 'u-kofi', username: 'kofi_waves', roles: ['moderator'], since: ago(50 * hour) },
]

function render() {
  return renderRoutes([{ path: '/moderation', element: <ModerationPage /> }], '/moderation')
}

const postsTo = (api: ReturnType<typeof stubApi>, path: string) =>
  api.mock.calls.map(([url, init], index) => ({ url: String(url), init: init as RequestInit | undefined, index })).filter((c) => c.init?.method === 'POST' && c.url === path)

describe('/moderation', () => {
  beforeEach(() => useSession.setState({ token: 'tok', user: profileFixture({ userId: 'u-me', username: 'ada_lumen' }) }))
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('tells someone without a staff role that the page is not for them, and never asks for the queue', async () => {
    const api = stubApi([{ path: '/api/moderation/roles', body: { roles: [] } }])
    render()
    expect(await screen.findByTestId('moderation-not-allowed')).toHaveTextContent('This page is for moderators')
    expect(api.mock.calls.some(([url]) => String(url).startsWith('/api/moderation/queue'))).toBe(false)
    expect(screen.getByRole('link', { name: 'Transparency' })).toHaveAttribute('href', '/transparency')
  })

  it('lists each target with its preview, open reports, reporters, appeal and history; no Staff tab for a moderator', async () => {
    stubApi([
      { path: '/api/moderation/roles', body: { roles: ['moderator'] } },
      { path: '/api/moderation/queue', body: { items: [reported, appealed], total: 2 } },
    ])
    render()
    const items = await screen.findAllByTestId('queue-item')
    expect(items).toHaveLength(2)
    const first = items[0]
    expect(within(first).getByTestId('queue-item-link')).toHaveAttribute('href', '/nft/80001-7')
    expect(within(first).getByText('Harbour at dusk')).toBeInTheDocument()
    expect(within(first).getByText('2 open reports')).toBeInTheDocument()
    const reports = within(first).getAllByTestId('open-report')
    expect(reports[0]).toHaveTextContent('Might be stolen')
    expect(reports[0]).toHaveTextContent('by @bob_b')
    expect(reports[0]).toHaveTextContent('Copied from my gallery')
    expect(reports[1]).toHaveTextContent('Fake collection or possible scam')
    expect(within(first).getByTestId('action-hide')).toBeInTheDocument()
    expect(within(first).queryByTestId('action-restore')).toBeNull()
    await userEvent.click(within(first).getByTestId('queue-history-toggle'))
    expect(await within(first).findByTestId('past-decision')).toHaveTextContent('Not spam')
    expect(within(first).getByTestId('past-report')).toHaveTextContent('by @al_a')

    const second = items[1]
    expect(within(second).getByTestId('standing-hidden')).toBeInTheDocument()
    expect(within(second).getByTestId('queue-appeal')).toHaveTextContent('I painted it myself')
    expect(within(second).queryByTestId('action-hide')).toBeNull()
    expect(within(second).getByTestId('action-restore')).toBeInTheDocument()
    expect(within(second).getByTestId('action-dismiss')).toHaveTextContent('Keep hidden')
    expect(screen.queryByTestId('moderation-tab-staff')).toBeNull()
  })

  it('hides with the reason the owner reads, refusing an empty one', async () => {
    const api = stubApi([
      { path: '/api/moderation/roles', body: { roles: ['moderator'] } },
      { path: '/api/moderation/queue', body: { items: [reported], total: 1 } },
      { method: 'POST', path: '/api/moderation/nft/80001-7/hide', body: { position: 40 } },
    ])
    render()
    await userEvent.click(await screen.findByTestId('action-hide'))
    const dialog = await screen.findByTestId('reason-dialog')
    expect(within(dialog).getByText('Hide Harbour at dusk?')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByTestId('reason-submit'))
    expect(await within(dialog).findByText('Write a reason')).toBeInTheDocument()
    expect(postsTo(api, '/api/moderation/nft/80001-7/hide')).toHaveLength(0)
    await userEvent.type(within(dialog).getByTestId('reason-text'), 'Stolen from the reporter, who showed the originals')
    await userEvent.click(within(dialog).getByTestId('reason-submit'))
    await waitFor(() => expect(postsTo(api, '/api/moderation/nft/80001-7/hide')).toHaveLength(1))
    expect(callBody(api, postsTo(api, '/api/moderation/nft/80001-7/hide')[0].index)).toEqual({ text: 'Stolen from the reporter, who showed the originals' })
    await waitFor(() => expect(screen.queryByTestId('reason-dialog')).toBeNull())
    // The queue is asked again after the decision.
    expect(api.mock.calls.filter(([url]) => String(url).startsWith('/api/moderation/queue')).length).toBeGreaterThan(1)
  })

  it('keeps the dialog open with the server message when the decision is refused', async () => {
    stubApi([
      { path: '/api/moderation/roles', body: { roles: ['moderator'] } },
      { path: '/api/moderation/queue', body: { items: [reported], total: 1 } },
      { method: 'POST', path: '/api/moderation/nft/80001-7/dismiss', status: 403, message: 'A moderator cannot dismiss reports on their own nft' },
    ])
    render()
    await userEvent.click(await screen.findByTestId('action-dismiss'))
    const dialog = await screen.findByTestId('reason-dialog')
    await userEvent.type(within(dialog).getByTestId('reason-text'), 'Fine')
    await userEvent.click(within(dialog).getByTestId('reason-submit'))
    expect(await within(dialog).findByTestId('reason-error')).toHaveTextContent('their own nft')
  })

  it('weighs each reporter: their dismissed reports, Mute once they have two, Unmute when muted', async () => {
    const muted = { ...reported.openReports[1], reportId: 'r3', reporterId: 'u-zed', reporterUsername: 'zed_z', reporterDismissed: 5, reporterMuted: true }
    const api = stubApi([
      { path: '/api/moderation/roles', body: { roles: ['moderator'] } },
      { path: '/api/moderation/queue', body: { items: [{ ...reported, openReports: [...reported.openReports, muted] }], total: 1 } },
      { method: 'POST', path: '/api/moderation/user/u-eve/mute', body: { position: 41 } },
    ])
    render()
    const reports = await screen.findAllByTestId('open-report')
    expect(within(reports[0]).getByTestId('reporter-dismissed')).toHaveTextContent('0 reports dismissed')
    expect(within(reports[0]).queryByTestId('reporter-mute')).toBeNull()
    expect(within(reports[1]).getByTestId('reporter-dismissed')).toHaveTextContent('3 reports dismissed')
    expect(within(reports[2]).getByTestId('reporter-muted')).toHaveTextContent('Muted reporter')
    expect(within(reports[2]).queryByTestId('reporter-mute')).toBeNull()
    expect(within(reports[2]).getByTestId('reporter-unmute')).toBeInTheDocument()

    await userEvent.click(within(reports[1]).getByTestId('reporter-mute'))
    const dialog = await screen.findByTestId('reason-dialog')
    expect(within(dialog).getByText('Mute @eve_e?')).toBeInTheDocument()
    expect(within(dialog).getByText(/no longer reach the queue/)).toBeInTheDocument()
    await userEvent.click(within(dialog).getByTestId('reason-submit'))
    expect(await within(dialog).findByText('Write a reason')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByTestId('reason-text'), 'Reports every listing of a rival')
    await userEvent.click(within(dialog).getByTestId('reason-submit'))
    await waitFor(() => expect(postsTo(api, '/api/moderation/user/u-eve/mute')).toHaveLength(1))
    expect(callBody(api, postsTo(api, '/api/moderation/user/u-eve/mute')[0].index)).toEqual({ text: 'Reports every listing of a rival' })
    await waitFor(() => expect(screen.queryByTestId('reason-dialog')).toBeNull())
    // The past report's reporter is not weighed again in the history.
    await userEvent.click(screen.getByTestId('queue-history-toggle'))
    expect(within(await screen.findByTestId('past-report')).queryByTestId('reporter-standing')).toBeNull()
  })

  it('says when the queue is clear', async () => {
    stubApi([
      { path: '/api/moderation/roles', body: { roles: ['moderator'] } },
      { path: '/api/moderation/queue', body: { items: [], total: 0 } },
    ])
    render()
    expect(await screen.findByTestId('queue-empty')).toHaveTextContent('The queue is clear')
  })

  it('gives admins the Staff tab: the list with roles, a grant by username, and no revoking their own admin role', async () => {
    const api = stubApi([
      { path: '/api/moderation/roles', body: { roles: ['admin'] } },
      { path: '/api/moderation/queue', body: { items: [], total: 0 } },
      { path: '/api/staff', body: staff },
      { method: 'POST', path: '/api/staff', body: [...staff, { userId: 'u-noor', username: 'noor_grid', roles: ['moderator'], since: ago(0) }] },
    ])
    render()
    await userEvent.click(await screen.findByTestId('moderation-tab-staff'))
    const members = await screen.findAllByTestId('staff-member')
    expect(members.map((m) => m.getAttribute('data-username'))).toEqual(['ada_lumen', 'kofi_waves'])
    expect(within(members[0]).queryByTestId('staff-revoke-admin')).toBeNull()
    expect(within(members[1]).getByRole('button', { name: 'Revoke the Moderator role of @kofi_waves' })).toBeInTheDocument()
    await userEvent.type(screen.getByTestId('staff-username'), '@noor_grid')
    await userEvent.click(screen.getByTestId('staff-grant-submit'))
    await waitFor(() => expect(postsTo(api, '/api/staff')).toHaveLength(1))
    expect(callBody(api, postsTo(api, '/api/staff')[0].index)).toEqual({ username: 'noor_grid', role: 'moderator' })
    expect(await screen.findAllByTestId('staff-member')).toHaveLength(3)
  })
})
