import Cookies from 'js-cookie'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, useSession } from '@/lib/auth'
import { callBody, stubApi } from '@/testing/fetch'
import { renderRoutes } from '@/testing/render'
import type { DeliveryAttempt, WebhookEndpoint } from '../api/webhooks'
import { WebhooksPage } from './webhooks-page'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const ID = '0190a0b0-0000-7000-8000-000000000001'

const hook: WebhookEndpoint = {
  endpointId: ID,
  url: 'https://hooks.example.com/market',
  topics: ['market', 'nft:80001-7'],
  noticeKinds: ['SOLD'],
  state: 'ACTIVE',
  acknowledgedPosition: 41,
  failures: 0,
  nextAttemptAt: null,
  disabledAt: null,
  lastDelivery: { position: 41, messageId: 'msg_41_x', attempt: 1, status: 204, error: null, latencyMs: 12, at: '2026-11-20T10:00:00.000Z', ok: true },
  createdAt: '2026-11-20T09:00:00Z',
}

const disabled: WebhookEndpoint = {
  ...hook,
  state: 'DISABLED',
  failures: 30,
  disabledAt: '2026-11-21T10:00:00.000Z',
  lastDelivery: { position: 42, messageId: 'msg_42_x', attempt: 30, status: null, error: 'connection refused', latencyMs: 3, at: '2026-11-21T10:00:00.000Z', ok: false },
}

const log: DeliveryAttempt[] = [
  { position: 0, messageId: 'msg_test_1', attempt: 1, status: 200, error: null, latencyMs: 8, at: '2026-11-20T10:05:00.000Z', ok: true },
  { position: 42, messageId: 'msg_42_x', attempt: 2, status: 500, error: null, latencyMs: 30, at: '2026-11-20T10:04:00.000Z', ok: false },
  { position: 41, messageId: 'msg_41_x', attempt: 1, status: null, error: 'timed out', latencyMs: 10000, at: '2026-11-20T10:03:00.000Z', ok: false },
]

const method = (init: unknown) => (init as RequestInit | undefined)?.method ?? 'GET'

function render() {
  renderRoutes([{ path: '/profile/webhooks', element: <WebhooksPage /> }], '/profile/webhooks')
}

describe('Webhooks settings', () => {
  beforeEach(() => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    useSession.setState({ token: 'tok' })
  })

  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('lists the endpoints with their topics, kinds, state and last delivery', async () => {
    stubApi([{ path: '/api/webhooks', body: [hook] }])
    render()
    const row = await screen.findByTestId('webhook')
    expect(within(row).getByTestId('webhook-url')).toHaveTextContent('https://hooks.example.com/market')
    expect(within(row).getByText('market')).toBeInTheDocument()
    expect(within(row).getByText('nft:80001-7')).toBeInTheDocument()
    expect(within(row).getByText('Sold')).toBeInTheDocument()
    expect(within(row).getByTestId('webhook-state')).toHaveTextContent('Active')
    expect(within(row).getByTestId('webhook-last')).toHaveTextContent(/Last delivery: HTTP 204 in 12 ms/)
    expect(within(row).getByTestId('webhook-last')).toHaveTextContent(/delivered up to position 41/)
  })

  it('says why an endpoint is disabled and from where to redeliver', async () => {
    stubApi([{ path: '/api/webhooks', body: [disabled] }])
    render()
    const row = await screen.findByTestId('webhook')
    expect(within(row).getByTestId('webhook-state')).toHaveTextContent('Disabled')
    expect(within(row).getByTestId('webhook-why')).toHaveTextContent(/failing for 24 hours \(last: connection refused\).*redeliver from position 42/)
  })

  it('refuses a missing URL, an unknown topic and nothing chosen before calling the server', async () => {
    const api = stubApi([{ path: '/api/webhooks', body: [] }])
    render()
    await userEvent.click(await screen.findByTestId('webhook-create'))
    const dialog = await screen.findByTestId('webhook-dialog')
    await userEvent.click(within(dialog).getByText('Every NFT change on the market'))
    await userEvent.click(within(dialog).getByTestId('webhook-submit'))
    expect(await within(dialog).findByText('Enter the URL')).toBeInTheDocument()
    expect(within(dialog).getByText('Choose market changes or at least one notice kind')).toBeInTheDocument()

    await userEvent.click(within(dialog).getByTestId('webhook-url-input'))
    await userEvent.paste('ftp://hooks.example.com')
    await userEvent.click(within(dialog).getByTestId('webhook-topics-input'))
    await userEvent.paste('nft:80001-7 markets')
    await userEvent.click(within(dialog).getByTestId('webhook-submit'))
    expect(await within(dialog).findByText('Start with https:// and a host name')).toBeInTheDocument()
    expect(within(dialog).getByText(/Unknown topic “markets”/)).toBeInTheDocument()
    expect(api.mock.calls.filter(([, init]) => method(init) === 'POST')).toHaveLength(0)
  })

  it('shows the 400 of the API under the field it names (a private address refused)', async () => {
    stubApi([
      { path: '/api/webhooks', body: [] },
      { method: 'POST', path: '/api/webhooks', status: 400, message: 'url: 10.0.0.7 is not a public address' },
    ])
    render()
    await userEvent.click(await screen.findByTestId('webhook-create'))
    const dialog = await screen.findByTestId('webhook-dialog')
    await userEvent.click(within(dialog).getByTestId('webhook-url-input'))
    await userEvent.paste('https://10.0.0.7/hook')
    await userEvent.click(within(dialog).getByTestId('webhook-submit'))
    const message = await within(dialog).findByText('url: 10.0.0.7 is not a public address')
    expect(within(dialog).getByTestId('webhook-url-input')).toHaveAttribute('aria-invalid', 'true')
    expect(message).toBeInTheDocument()
    expect(within(dialog).queryByTestId('webhook-secret')).not.toBeInTheDocument()
  })

  it('registers an endpoint with its topics and kinds and shows the secret once, with a copy button', async () => {
    const writeText = vi.fn(async () => undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const api = stubApi([
      { path: '/api/webhooks', body: [] },
      { method: 'POST', path: '/api/webhooks', body: { ...hook, secret: SECRET } },
    ])
    render()
    await userEvent.click(await screen.findByTestId('webhook-create'))
    const dialog = await screen.findByTestId('webhook-dialog')
    await userEvent.click(within(dialog).getByTestId('webhook-url-input'))
    await userEvent.paste(' https://hooks.example.com/market ')
    await userEvent.click(within(dialog).getByTestId('webhook-topics-input'))
    await userEvent.paste('nft:80001-7, nft:80001-7')
    await userEvent.click(within(dialog).getByText('Sold'))
    await userEvent.click(within(dialog).getByText('Offer received'))
    await userEvent.click(within(dialog).getByTestId('webhook-submit'))

    expect(await within(dialog).findByTestId('webhook-secret')).toHaveTextContent(SECRET)
    const post = api.mock.calls.findIndex(([, init]) => method(init) === 'POST')
    expect(callBody(api, post)).toEqual({ url: 'https://hooks.example.com/market', topics: ['market', 'nft:80001-7'], noticeKinds: ['SOLD', 'OFFER_RECEIVED'] })
    await userEvent.click(within(dialog).getByTestId('webhook-copy'))
    expect(writeText).toHaveBeenCalledWith(SECRET)
    expect(await within(dialog).findByText('Copied')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByTestId('webhook-done'))
    await waitFor(() => expect(screen.queryByTestId('webhook-dialog')).not.toBeInTheDocument())
    expect(document.body.textContent).not.toContain(SECRET)
  })

  it('edits an endpoint with PUT, its fields filled in', async () => {
    const api = stubApi([
      { path: '/api/webhooks', body: [hook] },
      { method: 'PUT', path: `/api/webhooks/${ID}`, body: hook },
    ])
    render()
    await userEvent.click(await screen.findByTestId('webhook-edit'))
    const dialog = await screen.findByTestId('webhook-dialog')
    expect(within(dialog).getByTestId('webhook-url-input')).toHaveValue('https://hooks.example.com/market')
    expect(within(dialog).getByTestId('webhook-topics-input')).toHaveValue('nft:80001-7')
    await userEvent.click(within(dialog).getByText('Every NFT change on the market'))
    await userEvent.click(within(dialog).getByTestId('webhook-submit'))
    await waitFor(() => expect(api.mock.calls.some(([, init]) => method(init) === 'PUT')).toBe(true))
    const put = api.mock.calls.findIndex(([, init]) => method(init) === 'PUT')
    expect(callBody(api, put)).toEqual({ url: 'https://hooks.example.com/market', topics: ['nft:80001-7'], noticeKinds: ['SOLD'] })
  })

  it('deletes an endpoint only after the confirmation', async () => {
    const api = stubApi([
      { path: '/api/webhooks', body: [hook] },
      { method: 'DELETE', path: `/api/webhooks/${ID}`, body: null },
    ])
    render()
    await userEvent.click(await screen.findByTestId('webhook-delete'))
    const confirm = await screen.findByTestId('confirm-dialog')
    expect(confirm).toHaveTextContent('https://hooks.example.com/market')
    const deletes = () => api.mock.calls.filter(([, init]) => method(init) === 'DELETE')
    expect(deletes()).toHaveLength(0)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deletes()).toHaveLength(1))
    expect(deletes()[0][0]).toBe(`/api/webhooks/${ID}`)
  })

  it('sends a test event and says how it went', async () => {
    const api = stubApi([
      { path: '/api/webhooks', body: [hook] },
      { method: 'POST', path: `/api/webhooks/${ID}/test`, body: { ...log[0], status: 502, ok: false } },
    ])
    render()
    await userEvent.click(await screen.findByTestId('webhook-test'))
    expect(await screen.findByText('Test event failed: HTTP 502')).toBeInTheDocument()
    expect(api.mock.calls.some(([path, init]) => path === `/api/webhooks/${ID}/test` && method(init) === 'POST')).toBe(true)
  })

  it('shows the delivery log newest first, with status or error, latency and attempt', async () => {
    stubApi([
      { path: '/api/webhooks', body: [hook] },
      { path: `/api/webhooks/${ID}/deliveries`, body: log },
    ])
    render()
    await userEvent.click(await screen.findByTestId('webhook-log'))
    const dialog = await screen.findByTestId('webhook-log-dialog')
    const rows = await within(dialog).findAllByTestId('webhook-attempt')
    expect(rows.map((r) => r.getAttribute('data-position'))).toEqual(['0', '42', '41'])
    expect(rows[0]).toHaveTextContent('Test event')
    expect(within(rows[0]).getByTestId('webhook-attempt-status')).toHaveTextContent('200')
    expect(rows[1]).toHaveTextContent(/Position 42.*attempt 2/)
    expect(within(rows[1]).getByTestId('webhook-attempt-status')).toHaveTextContent('500')
    expect(rows[2]).toHaveTextContent('timed out')
    expect(rows[2]).toHaveTextContent('10000 ms')
    expect(within(rows[2]).getByTestId('webhook-attempt-status')).toHaveTextContent('No answer')
  })

  it('redelivers from a position (the next one after the acknowledged by default) and refuses 0', async () => {
    const api = stubApi([
      { path: '/api/webhooks', body: [disabled] },
      { path: `/api/webhooks/${ID}/deliveries`, body: [] },
      { method: 'POST', path: `/api/webhooks/${ID}/redeliver`, body: { ...hook, acknowledgedPosition: 9 } },
    ])
    render()
    await userEvent.click(await screen.findByTestId('webhook-log'))
    const dialog = await screen.findByTestId('webhook-log-dialog')
    expect(await within(dialog).findByTestId('webhook-log-empty')).toBeInTheDocument()
    expect(within(dialog).getByText(/redelivering enables it again/)).toBeInTheDocument()
    const from = within(dialog).getByTestId('webhook-redeliver-from')
    expect(from).toHaveValue(42)
    await userEvent.clear(from)
    await userEvent.type(from, '0')
    await userEvent.click(within(dialog).getByTestId('webhook-redeliver'))
    expect(await within(dialog).findByText('Enter a position of 1 or more')).toBeInTheDocument()
    const posts = () => api.mock.calls.filter(([, init]) => method(init) === 'POST')
    expect(posts()).toHaveLength(0)
    await userEvent.clear(from)
    await userEvent.type(from, '10')
    await userEvent.click(within(dialog).getByTestId('webhook-redeliver'))
    await waitFor(() => expect(posts()).toHaveLength(1))
    expect(posts()[0][0]).toBe(`/api/webhooks/${ID}/redeliver`)
    expect(callBody(api, api.mock.calls.indexOf(posts()[0]))).toEqual({ fromPosition: 10 })
  })
})
