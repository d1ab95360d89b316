import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderPage } from '@/testing/render'
import { FaqPage } from './faq-page'
import { PolicyPage } from './policy-page'

describe('FAQ', () => {
  it('has seven panels, the first open, one open at a time', async () => {
    renderPage(<FaqPage />)
    const triggers = within(screen.getByTestId('faq')).getAllByRole('button')
    expect(triggers).toHaveLength(7)
    expect(triggers[0]).toHaveAttribute('aria-expanded', 'true')
    expect(triggers.slice(1).every((t) => t.getAttribute('aria-expanded') === 'false')).toBe(true)
    await userEvent.click(triggers[3])
    expect(triggers[3]).toHaveAttribute('aria-expanded', 'true')
    expect(triggers[0]).toHaveAttribute('aria-expanded', 'false')
  })
})

describe('policies', () => {
  it.each(['terms', 'privacy'] as const)('%s shows the last updated date 24 May 2021', (kind) => {
    renderPage(<PolicyPage kind={kind} />)
    expect(screen.getByTestId('last-updated')).toHaveTextContent('Last updated: May 24, 2021')
    expect(screen.getAllByRole('heading', { level: 2 }).length).toBeGreaterThanOrEqual(5)
  })
})
