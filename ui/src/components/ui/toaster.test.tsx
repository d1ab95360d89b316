import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderPage } from '@/testing/render'
import { MAX_SNACKBARS, notify, toaster } from './toaster'

const texts = () => toaster.getVisibleToasts().map((t) => String(t.description))

describe('snackbars', () => {
  it('always show the newest: past four the oldest leaves, an error last', () => {
    notify('error', 'Bidding failed!', Infinity)
    for (const n of [1, 2, 3, 4]) notify('info', `You were outbid ${n}`)
    expect(texts()).toHaveLength(MAX_SNACKBARS)
    expect(texts()[0]).toBe('You were outbid 4')
    expect(texts()).toContain('Bidding failed!')
    expect(texts()).not.toContain('You were outbid 1')
    for (const n of [1, 2, 3, 4]) notify('error', `Error ${n}`, Infinity)
    expect(texts()).toEqual(['Error 4', 'Error 3', 'Error 2', 'Error 1'])
  })

  it('collapse the same message into one, counted and refreshed', () => {
    notify('success', 'Successfully bidded for the token')
    const id = notify('success', 'Successfully bidded for the token')
    notify('success', 'Successfully bidded for the token')
    const shown = toaster.getVisibleToasts()
    expect(shown).toHaveLength(1)
    expect(shown[0].id).toBe(id)
    expect(shown[0].meta).toEqual({ detail: undefined, count: 3 })
    // A different detail is a different message.
    notify('success', 'Successfully bidded for the token', { detail: 'tx 0xab' })
    expect(toaster.getVisibleToasts()).toHaveLength(2)
  })

  it('shows the count, a folded detail that wraps, and the action', async () => {
    const onClick = vi.fn()
    renderPage(<span />)
    act(() => {
      notify('error', 'The transaction failed.', { duration: Infinity, detail: `MarketplaceSomethingNew(${'9'.repeat(120)})` })
      notify('error', 'The transaction failed.', { duration: Infinity, detail: `MarketplaceSomethingNew(${'9'.repeat(120)})` })
      notify('info', 'You were outbid on Dune: kofi_waves bid 0.298 MATIC.', { action: { label: 'Bid again', onClick } })
    })
    const snackbars = await screen.findAllByTestId('snackbar')
    const error = snackbars.find((s) => s.dataset.type === 'error')!
    expect(within(error).getByTestId('snackbar-count')).toHaveTextContent('×2')
    const detail = within(error).getByTestId('snackbar-detail')
    expect(detail).not.toHaveAttribute('open')
    expect(within(detail).getByText('Details')).toBeInTheDocument()
    const outbid = snackbars.find((s) => s.dataset.type === 'info')!
    fireEvent.click(within(outbid).getByRole('button', { name: 'Bid again' }))
    expect(onClick).toHaveBeenCalledTimes(1)
  })
})
