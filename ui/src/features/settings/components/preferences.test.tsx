import i18n from 'i18next'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { renderPage } from '@/testing/render'
import { LanguagePage } from './language-page'
import { ThemePage } from './theme-page'

describe('language settings', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en')
  })

  it('offers English, Portuguese, French and German', () => {
    renderPage(<LanguagePage />)
    for (const code of ['en', 'pt', 'fr', 'ge']) expect(screen.getByTestId(`language-${code}`)).toBeInTheDocument()
    expect(screen.queryByTestId('language-bn')).toBeNull()
  })

  it('applies the choice at once and stores it under lang', async () => {
    renderPage(<LanguagePage />)
    await userEvent.click(screen.getByText('Português'))
    await waitFor(() => expect(i18n.language).toBe('pt'))
    expect(localStorage.getItem('lang')).toBe('pt')
  })
})

describe('theme settings', () => {
  it('switches between dark and light and stores the choice under theme', async () => {
    renderPage(<ThemePage />)
    await userEvent.click(screen.getByTestId('theme-light'))
    await waitFor(() => expect(localStorage.getItem('theme')).toBe('light'))
    expect(screen.getByTestId('theme-light')).toHaveAttribute('aria-pressed', 'true')
    await userEvent.click(screen.getByTestId('theme-dark'))
    await waitFor(() => expect(localStorage.getItem('theme')).toBe('dark'))
    expect(document.documentElement.classList.contains('dark')).toBe(true)
  })
})
