import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { callBody, stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import type { TargetKind } from '@/lib/moderation/api'
import { ReportDialog } from './report-dialog'

function open(kind: TargetKind = 'nft', onClose = vi.fn()) {
  renderPage(<ReportDialog kind={kind} targetId="80001-7" name="Sunset" onClose={onClose} />)
  return screen.findByTestId('report-dialog')
}

const posts = (api: ReturnType<typeof stubApi>) => api.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')

describe('Report dialog', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('offers the five reasons, each with a line of explanation, for an NFT', async () => {
    stubApi([])
    const dialog = await open('nft')
    for (const reason of ['SCAM', 'EXPLICIT', 'SPAM', 'STOLEN', 'OTHER']) expect(within(dialog).getByTestId(`report-reason-${reason}`)).toBeInTheDocument()
    expect(within(dialog).getByText('The artwork or the token was taken from someone else.')).toBeInTheDocument()
  })

  it('has no "stolen" for a collection', async () => {
    stubApi([])
    const dialog = await open('collection')
    expect(within(dialog).getByText('Report this collection')).toBeInTheDocument()
    expect(within(dialog).queryByTestId('report-reason-STOLEN')).toBeNull()
    expect(within(dialog).getByTestId('report-reason-SCAM')).toBeInTheDocument()
  })

  it('asks for a reason, and for a text when the reason is Other, before calling the server', async () => {
    const api = stubApi([{ method: 'POST', path: '/api/report', body: { reportId: 'r1' } }])
    const dialog = await open()
    await userEvent.click(within(dialog).getByTestId('report-submit'))
    expect(await within(dialog).findByTestId('report-reason-error')).toHaveTextContent('Choose a reason')
    await userEvent.click(within(dialog).getByText('Other'))
    await userEvent.click(within(dialog).getByTestId('report-submit'))
    expect(await within(dialog).findByText('Tell the moderators what is wrong')).toBeInTheDocument()
    expect(posts(api)).toHaveLength(0)
    await userEvent.type(within(dialog).getByTestId('report-text'), 'Minted from my photo')
    expect(within(dialog).getByTestId('report-counter')).toHaveTextContent('20/1000')
    await userEvent.click(within(dialog).getByTestId('report-submit'))
    expect(await within(dialog).findByTestId('report-done')).toHaveTextContent('Report sent')
    expect(posts(api)).toHaveLength(1)
    expect(callBody(api, api.mock.calls.findIndex(([, init]) => (init as RequestInit | undefined)?.method === 'POST'))).toEqual({
      targetKind: 'nft',
      targetId: '80001-7',
      reason: 'OTHER',
      text: 'Minted from my photo',
    })
  })

  it('says a second report of the same thing is already with the moderators (409)', async () => {
    stubApi([{ method: 'POST', path: '/api/report', status: 409, message: 'You already reported this nft; it awaits a decision' }])
    const dialog = await open()
    await userEvent.click(within(dialog).getByText('Spam'))
    await userEvent.click(within(dialog).getByTestId('report-submit'))
    expect(await within(dialog).findByTestId('report-error')).toHaveTextContent('You already reported this; the moderators will look at it.')
    expect(within(dialog).queryByTestId('report-done')).toBeNull()
  })

  it('shows the server message for another refusal', async () => {
    stubApi([{ method: 'POST', path: '/api/report', status: 400, message: 'text: at most 1000 characters' }])
    const dialog = await open()
    await userEvent.click(within(dialog).getByText('Spam'))
    await userEvent.click(within(dialog).getByTestId('report-submit'))
    expect(await within(dialog).findByTestId('report-error')).toHaveTextContent('text: at most 1000 characters')
  })
})
