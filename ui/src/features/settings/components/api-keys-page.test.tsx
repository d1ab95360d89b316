import Cookies from 'js-cookie'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, useSession } from '@/lib/auth'
import { callBody, stubApi } from '@/testing/fetch'
import { renderRoutes } from '@/testing/render'
import type { ApiKey } from '../api/api-keys'
import { ApiKeysPage } from './api-keys-page'

const KEY = 'mk_live_AbCd0123456789abcdefghijklmnopqrstuvwxyzAB'

const bot: ApiKey = {
  keyId: 'k1',
  name: 'Price bot',
  scopes: ['read', 'trades'],
  prefix: 'mk_live_Zz9y',
  createdAt: '2026-11-20T10:00:00Z',
  lastUsedAt: null,
}

function render() {
  renderRoutes([{ path: '/profile/api-keys', element: <ApiKeysPage /> }], '/profile/api-keys')
}

describe('API keys settings', () => {
  beforeEach(() => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    useSession.setState({ token: 'tok' })
  })

  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('lists the keys with their scopes and says when none was used', async () => {
    stubApi([{ path: '/api/account/keys', body: [bot] }])
    render()
    const row = await screen.findByTestId('api-key')
    expect(within(row).getByText('Price bot')).toBeInTheDocument()
    expect(within(row).getByText('mk_live_Zz9y…')).toBeInTheDocument()
    expect(within(row).getByText('Read')).toBeInTheDocument()
    expect(within(row).getByText('Trades')).toBeInTheDocument()
    expect(within(row).getByText(/Never used/)).toBeInTheDocument()
  })

  it('refuses an empty name and no scope before calling the server', async () => {
    const api = stubApi([{ path: '/api/account/keys', body: [] }])
    render()
    await screen.findByTestId('api-keys-empty')
    await userEvent.click(screen.getByTestId('api-key-create'))
    const dialog = await screen.findByTestId('api-key-dialog')
    await userEvent.click(within(dialog).getByText('Read'))
    await userEvent.click(within(dialog).getByTestId('api-key-submit'))
    expect(await within(dialog).findByText('Enter a name')).toBeInTheDocument()
    expect(within(dialog).getByText('Choose at least one scope')).toBeInTheDocument()
    expect(api.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toHaveLength(0)
  })

  it('creates a key with the chosen scopes and shows it once, with a copy button', async () => {
    const writeText = vi.fn(async () => undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const api = stubApi([
      { path: '/api/account/keys', body: [] },
      { method: 'POST', path: '/api/account/keys', body: { ...bot, key: KEY, scopes: ['read', 'notifications'] } },
    ])
    render()
    await screen.findByTestId('api-keys-empty')
    await userEvent.click(screen.getByTestId('api-key-create'))
    const dialog = await screen.findByTestId('api-key-dialog')
    await userEvent.type(within(dialog).getByTestId('api-key-name'), 'Price bot')
    await userEvent.click(within(dialog).getByText('Notifications'))
    await userEvent.click(within(dialog).getByTestId('api-key-submit'))

    expect(await within(dialog).findByTestId('api-key-secret')).toHaveTextContent(KEY)
    const post = api.mock.calls.findIndex(([, init]) => (init as RequestInit | undefined)?.method === 'POST')
    expect(callBody(api, post)).toEqual({ name: 'Price bot', scopes: ['read', 'notifications'] })
    await userEvent.click(within(dialog).getByTestId('api-key-copy'))
    expect(writeText).toHaveBeenCalledWith(KEY)
    expect(await within(dialog).findByText('Copied')).toBeInTheDocument()
  })

  it('revokes a key only after the confirmation', async () => {
    const api = stubApi([
      { path: '/api/account/keys', body: [bot] },
      { method: 'DELETE', path: '/api/account/keys/k1', body: null },
    ])
    render()
    await userEvent.click(await screen.findByTestId('api-key-revoke'))
    const confirm = await screen.findByTestId('confirm-dialog')
    expect(confirm).toHaveTextContent('Price bot')
    const deletes = () => api.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'DELETE')
    expect(deletes()).toHaveLength(0)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }))
    await waitFor(() => expect(deletes()).toHaveLength(1))
    expect(deletes()[0][0]).toBe('/api/account/keys/k1')
  })
})
