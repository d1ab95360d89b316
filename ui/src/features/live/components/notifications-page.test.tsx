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
