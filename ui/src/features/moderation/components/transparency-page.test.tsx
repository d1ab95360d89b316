import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Decision, Transparency } from '@/lib/moderation/api'
import { stubApi } from '@/testing/fetch'
import { renderRoutes } from '@/testing/render'
import { formatMonth, TransparencyPage } from './transparency-page'

const decision = (position: number, overrides: Partial<Decision> = {}): Decision => ({
  position,
  targetKind: 'nft',
  targetId: `80001-${position}`,
  decision: 'HIDE',
  moderator: 'kofi_waves',
  reason: 'Stolen artwork',
  reports: 2,
  at: '2026-11-20T10:00:00Z',
  targetTitle: null,
  targetHidden: true,
  ...overrides,
})

const record: Transparency = {
  months: [
    { month: '2026-11', reports: { STOLEN: 3, SPAM: 1 }, decisions: { HIDE: 2, RESTORE: 1, VERIFY: 1, HOLD: 1, MUTE: 1 }, medianHoursToDecision: 5.25 },
    { month: '2026-10', reports: { SCAM: 2 }, decisions: { DISMISS: 1 }, medianHoursToDecision: null },
  ],
  decisions: [
    decision(9),
    decision(8, { decision: 'VERIFY', targetKind: 'collection', targetId: 'c-42', reason: '', reports: 0, targetTitle: 'Harbour lights', targetHidden: false }),
  ],
  totalDecisions: 45,
}

const render = (at = '/transparency') => renderRoutes([{ path: '/transparency', element: <TransparencyPage /> }], at)

describe('/transparency', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows the months: reports by reason with their total, decisions by kind, the median hours', async () => {
    stubApi([{ path: '/api/transparency', body: record }])
    render()
    const rows = await screen.findAllByTestId('transparency-month')
    expect(rows).toHaveLength(2)
    const cells = within(rows[0]).getAllByRole('cell').map((c) => c.textContent)
    // Month; Scam, Explicit, Spam, Stolen, Other, Total; Hidden, Restored, Dismissed (always), and the
    // kinds these months have: Verified, Sale held, Muted (no Unverified, Hold released, Unmuted); median.
    expect(cells).toEqual(['November 2026', '0', '0', '1', '3', '0', '4', '2', '1', '0', '1', '1', '1', '5.3'])
    expect(within(screen.getByTestId('transparency-months')).queryByText('Unverified')).toBeNull()
    expect(within(rows[1]).getByTestId('median-hours')).toHaveTextContent('—')
    expect(screen.getByTestId('transparency-csv')).toHaveAttribute('href', '/api/transparency.csv')
  })

  it('lists the public decisions with target links, reasons and moderators, never a reporter, and pages them', async () => {
    const api = stubApi([{ path: '/api/transparency', body: record }])
    render()
    const items = await screen.findAllByTestId('transparency-decision')
    expect(items[0]).toHaveTextContent('Hidden')
    expect(items[0]).toHaveTextContent('Stolen artwork')
    expect(items[0]).toHaveTextContent('by @kofi_waves · 2 reports decided')
    // A hidden target shows as a hidden item beside its id (its title may be the abuse); the others by title.
    expect(within(items[0]).getByRole('link', { name: 'Hidden item 80001-9' })).toHaveAttribute('href', '/nft/80001-9')
    expect(within(items[1]).getByRole('link', { name: 'Harbour lights c-42' })).toHaveAttribute('href', '/collection/c-42')
    expect(within(items[1]).getByTestId('decision-title')).toHaveTextContent('Harbour lights')
    expect(screen.getByTestId('transparency-total')).toHaveTextContent('45 decisions')
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument()
    expect(screen.getByTestId('transparency-prev')).toBeDisabled()
    await userEvent.click(screen.getByTestId('transparency-next'))
    await waitFor(() => expect(api.mock.calls.some(([url]) => String(url) === '/api/transparency?page=2&limit=20')).toBe(true))
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument()
  })

  it('shows the id alone when the title is not known and the target is not hidden', async () => {
    stubApi([{ path: '/api/transparency', body: { ...record, decisions: [decision(7, { targetHidden: false, decision: 'RESTORE' })] } }])
    render()
    const [item] = await screen.findAllByTestId('transparency-decision')
    expect(within(item).getByRole('link', { name: '80001-7' })).toBeInTheDocument()
    expect(within(item).queryByTestId('decision-title')).toBeNull()
  })

  it('says when nothing was decided yet', async () => {
    stubApi([{ path: '/api/transparency', body: { months: [], decisions: [], totalDecisions: 0 } }])
    render()
    expect(await screen.findByTestId('transparency-no-months')).toBeInTheDocument()
    expect(screen.getByText('No public decision yet.')).toBeInTheDocument()
  })

  it('names months in the reader language', () => {
    expect(formatMonth('2026-03', 'fr')).toBe('mars 2026')
    expect(formatMonth('2026-03', 'en')).toBe('March 2026')
  })
})
