import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useConfigStore, FALLBACK_CONFIG } from '@/lib/app-config'
import { callBody, stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { SignInPage } from './sign-in-page'

describe('Google sign-in', () => {
  afterEach(() => {
    useConfigStore.setState({ config: null })
    delete window.google
    document.head.querySelectorAll('script[src*="accounts.google.com"]').forEach((s) => s.remove())
    vi.unstubAllGlobals()
  })

  it('loads Google Identity Services lazily when a client id is configured', async () => {
    useConfigStore.setState({ config: { ...FALLBACK_CONFIG, googleClientId: 'client-123' } })
    stubApi([])
    renderPage(<SignInPage />)
    expect(await screen.findByTestId('google-sign-in')).toBeInTheDocument()
    await waitFor(() => expect(document.head.querySelector('script[src="https://accounts.google.com/gsi/client"]')).not.toBeNull())
  })

  it('sends the ID token and shows a 400 message in an error snackbar', async () => {
    let callback: ((r: { credential: string }) => void) | undefined
    window.google = {
      accounts: {
        id: {
          initialize: ({ callback: cb }) => {
            callback = cb
          },
          renderButton: () => {},
        },
      },
    }
    useConfigStore.setState({ config: { ...FALLBACK_CONFIG, googleClientId: 'client-123' } })
    const api = stubApi([{ method: 'POST', path: '/api/auth/googlelogin', status: 400, message: 'Invalid Google token' }])
    renderPage(<SignInPage />)
    await waitFor(() => expect(callback).toBeDefined())
    callback!({ credential: 'id-token-abc' })
    expect(await screen.findByText('Invalid Google token')).toBeInTheDocument()
    expect(callBody(api, 0)).toEqual({ idToken: 'id-token-abc' })
  })
})
