import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { UiProvider } from '@/components/ui/provider'
import { offerFixture } from '@/testing/offers'
import { expiryError, expiryOf, MakeOfferDialog, MAX_OFFER_DAYS, offerAmountError } from './make-offer-dialog'

const offer = offerFixture

describe('the make-offer form', () => {
  it('checks the amount: required, a number, above 0', () => {
    expect(offerAmountError('')).toBe('offers.amountRequired')
    expect(offerAmountError('abc')).toBe('offers.amountNumeric')
    expect(offerAmountError('0')).toBe('offers.amountPositive')
    expect(offerAmountError(' 0.05 ')).toBeNull()
  })

  it('computes the expiry from the choice, and refuses a custom time in the past', () => {
    const now = Date.UTC(2026, 0, 1)
    expect(expiryOf('7', '', now)?.getTime()).toBe(now + 7 * 86_400_000)
    expect(expiryOf('custom', '2020-01-01T10:00', now)).toBeNull()
    expect(expiryOf('custom', 'nonsense', now)).toBeNull()
    expect(expiryOf('custom', '2030-01-01T10:00', now)?.getFullYear()).toBe(2030)
  })

  it('refuses an expiry further than the contract allows (180 days)', () => {
    const now = Date.UTC(2026, 0, 1)
    expect(MAX_OFFER_DAYS).toBe(180)
    expect(expiryError(null, now)).toBe('offers.expiryPast')
    expect(expiryError(new Date(now + 30 * 86_400_000), now)).toBeNull()
    expect(expiryError(new Date(now + 179 * 86_400_000), now)).toBeNull()
    expect(expiryError(new Date(now + 181 * 86_400_000), now)).toBe('offers.expiryTooFar')
  })

  it('submits the amount and an expiry 7 days ahead by default, or says what is wrong', async () => {
    const onSubmit = vi.fn()
    const onClose = vi.fn()
    render(
      <UiProvider>
        <MakeOfferDialog open title="Harbour" onSubmit={onSubmit} onClose={onClose} />
      </UiProvider>,
    )
    await screen.findByTestId('make-offer-dialog')
    expect(screen.getByText('Offer an amount for Harbour. Its owner can accept it until it expires.')).toBeInTheDocument()
    fireEvent.click(screen.getByTestId('offer-submit'))
    expect(await screen.findByText('Offer amount is required.')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()

    fireEvent.change(screen.getByTestId('offer-amount'), { target: { value: '0.3' } })
    const before = Date.now()
    fireEvent.click(screen.getByTestId('offer-submit'))
    expect(onClose).toHaveBeenCalled()
    const [amount, expiresAt] = onSubmit.mock.calls[0] as [string, Date]
    expect(amount).toBe('0.3')
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 1000)
    expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000)
  })

  it('takes a custom date and time, and says when the offer replaces the current one', async () => {
    const onSubmit = vi.fn()
    render(
      <UiProvider>
        <MakeOfferDialog open title="Harbour" current={offer()} onSubmit={onSubmit} onClose={() => {}} />
      </UiProvider>,
    )
    expect(await screen.findByTestId('offer-replaces')).toHaveTextContent('This replaces your offer of 0.300 MATIC; that amount goes back to your wallet.')
    expect(screen.getByRole('heading', { name: 'Change your offer' })).toBeInTheDocument()
    fireEvent.change(screen.getByTestId('offer-amount'), { target: { value: '0.5' } })
    fireEvent.change(screen.getByTestId('offer-expiry'), { target: { value: 'custom' } })
    fireEvent.change(screen.getByTestId('offer-expiry-custom'), { target: { value: '2020-05-01T10:00' } })
    fireEvent.click(screen.getByRole('button', { name: 'Replace offer' }))
    expect(await screen.findByText('Choose a time in the future.')).toBeInTheDocument()
    fireEvent.change(screen.getByTestId('offer-expiry-custom'), { target: { value: '2031-05-01T10:00' } })
    fireEvent.click(screen.getByRole('button', { name: 'Replace offer' }))
    expect(await screen.findByText('An offer can last at most 180 days.')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
    // 30 days ahead, at 10:00 local time.
    const inAMonth = new Date(Date.now() + 30 * 86_400_000)
    const pad = (n: number) => String(n).padStart(2, '0')
    const value = `${inAMonth.getFullYear()}-${pad(inAMonth.getMonth() + 1)}-${pad(inAMonth.getDate())}T10:00`
    fireEvent.change(screen.getByTestId('offer-expiry-custom'), { target: { value } })
    fireEvent.click(screen.getByRole('button', { name: 'Replace offer' }))
    const [amount, expiresAt] = onSubmit.mock.calls[0] as [string, Date]
    expect([amount, expiresAt.getFullYear(), expiresAt.getMonth(), expiresAt.getHours()]).toEqual(['0.5', inAMonth.getFullYear(), inAMonth.getMonth(), 10])
  })
})
