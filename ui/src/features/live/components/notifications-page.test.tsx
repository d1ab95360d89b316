import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useSession } from '@/lib/auth'
import type { Notice } from '@/lib/live/stream'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { NotificationBell } from './notification-bell'
import { NotificationsPage } from './notifications-page'

const notice = (position: number, kind: Notice['kind'], read: boolean): Notice => ({
  position,
  kind,
  nftId: `80001-${position}`,
  nftTitle: `Piece ${position}`,
  nftFile: null,
  amount: '2',
  amountWei: '2000000000000000000',
  counterpartAddress: '0x1234567890abcdef1234567890abcdef12345678',
  counterpartUsername: 'bob',
  transactionHash: '0xabc',
  createdAt: new Date().toISOString(),
  read,
})
const page = (data: Notice[]) => ({ data, count: data.length, totalItems: data.length, currentPage: 1, lastPage: true, currentItemCount: data.length })

describe('notifications', () => {
  afterEach(() => {
    useSession.setState({ token: undefined, user: null, userFresh: false })
    vi.unstubAllGlobals()
  })

  it('lists the notices, reads them all up to the newest shown, and saves a muted kind', async () => {
    useSession.setState({ token: 'tok', user: null, userFresh: false })
    const api = stubApi([
      { path: '/api/notifications', body: page([notice(9, 'OUTBID', false), notice(5, 'SOLD', true)]) },
      { path: '/api/notifications/unread', body: { unread: 1 } },
      { path: '/api/notifications/settings', body: { muted: [], email: [] } },
      { method: 'POST', path: '/api/notifications/readall', body: { unread: 0 } },
      { method: 'PUT', path: '/api/notifications/settings', body: { unread: 0 } },
    ])
    renderPage(<NotificationsPage />, { path: '/notifications', at: '/notifications' })

    const rows = await screen.findAllByTestId('notice')
    expect(rows.map((row) => row.getAttribute('data-kind'))).toEqual(['OUTBID', 'SOLD'])
    expect(rows[0].textContent).toContain('You were outbid on Piece 9: bob bid more. Your 2.000\u00a0MATIC was refunded.')
    expect(rows.map((row) => row.getAttribute('data-read'))).toEqual(['false', 'true'])

    fireEvent.click(await screen.findByTestId('read-all'))
    await waitFor(() => expect(api.mock.calls.some(([url, init]) => url === '/api/notifications/readall' && init?.method === 'POST')).toBe(true))
    const readAll = api.mock.calls.find(([url]) => url === '/api/notifications/readall')
    expect(JSON.parse(String(readAll?.[1]?.body))).toEqual({ upTo: 9 })

    const settings = await screen.findByTestId('notice-settings')
    fireEvent.click(within(settings).getByTestId('notice-muted-OUTBID').querySelector('input') as HTMLInputElement)
    await waitFor(() => expect(api.mock.calls.some(([url, init]) => url === '/api/notifications/settings' && init?.method === 'PUT')).toBe(true))
    const put = api.mock.calls.find(([url, init]) => url === '/api/notifications/settings' && init?.method === 'PUT')
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ muted: ['OUTBID'], email: [] })
  })

  it('tells a moderation decision, leads to its target, lists its kinds in the settings, and drops a withheld picture', async () => {
    useSession.setState({ token: 'tok', user: null, userFresh: false })
    const hidden: Notice = {
      ...notice(12, 'HIDDEN', false),
      nftFile: '/ipfs/bafyhidden',
      counterpartAddress: null,
      counterpartUsername: null,
      targetKind: 'nft',
      targetId: '80001-12',
      targetTitle: 'Piece 12',
      reason: 'Explicit content',
    }
    const decided: Notice = { ...notice(11, 'REPORT_DECIDED', false), nftId: '', targetKind: 'collection', targetId: 'c-7', targetTitle: 'Harbour', decision: 'DISMISS', reason: 'A real gallery' }
    stubApi([
      { path: '/api/notifications', body: page([hidden, decided]) },
      { path: '/api/notifications/unread', body: { unread: 2 } },
      { path: '/api/notifications/settings', body: { muted: [], email: [] } },
    ])
    renderPage(<NotificationsPage />, { path: '/notifications', at: '/notifications' })
    const rows = await screen.findAllByTestId('notice')
    expect(rows[0].textContent).toContain('A moderator hid Piece 12 from everyone but you: “Explicit content”.')
    expect(rows[0].getAttribute('href')).toBe('/nft/80001-12')
    expect(rows[1].textContent).toContain('Your report of the collection Harbour was dismissed: “A real gallery”')
    expect(rows[1].getAttribute('href')).toBe('/collection/c-7')
    const picture = rows[0].querySelector('img') as HTMLImageElement
    fireEvent.error(picture)
    await waitFor(() => expect(rows[0].querySelector('img')).toBeNull())
    const settings = await screen.findByTestId('notice-settings')
    for (const kind of ['HIDDEN', 'RESTORED', 'REPORT_DECIDED']) expect(within(settings).getByTestId(`notice-muted-${kind}`)).toBeInTheDocument()
  })

  it('the bell shows the unread count, and none when everything is read', async () => {
    useSession.setState({ token: 'tok', user: null, userFresh: false })
    stubApi([{ path: '/api/notifications/unread', body: { unread: 2 } }])
    const first = renderPage(<NotificationBell />)
    expect((await screen.findByTestId('notification-count')).textContent).toBe('2')
    expect(screen.getByRole('link', { name: 'Notifications: 2 unread' }).getAttribute('href')).toBe('/notifications')
    first.unmount()
    stubApi([{ path: '/api/notifications/unread', body: { unread: 0 } }])
    renderPage(<NotificationBell />)
    await screen.findByRole('link', { name: 'Notifications' })
    expect(screen.queryByTestId('notification-count')).toBeNull()
  })
})
