import Cookies from 'js-cookie'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, useSession } from '@/lib/auth'
import { callBody, stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { SignInPage } from './sign-in-page'

const render = (at = '/authentication/sign-in') => renderPage(<SignInPage />, { path: '/authentication/sign-in', at })

async function signIn(email: string, password: string) {
  if (email) await userEvent.type(screen.getByLabelText('Email'), email)
  if (password) await userEvent.type(screen.getByLabelText('Password'), password)
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
}

describe('sign-in form', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('requires a valid e-mail and a password, on submit only', async () => {
    stubApi([])
    render()
    expect(screen.queryByText('Required')).toBeNull()
    await signIn('', '')
    expect(await screen.findByText('Enter a valid email')).toBeInTheDocument()
    expect(screen.getByText('Required')).toBeInTheDocument()
  })

  it('shows the server error under the form', async () => {
    stubApi([{ method: 'POST', path: '/api/auth/login', status: 400, message: 'Invalid credentials' }])
    render()
    await signIn('neo@example.com', 'wrong')
    expect(await screen.findByTestId('auth-error')).toHaveTextContent('Invalid credentials')
  })

  it('sends an unverified e-mail to the activation page', async () => {
    stubApi([{ method: 'POST', path: '/api/auth/login', status: 403, message: 'Cannot Login Email Not Verified, OTP send to your email' }])
    render()
    await signIn('neo@example.com', 'secret')
    expect(await screen.findByTestId('location')).toHaveTextContent('/activate/neo%40example.com/-1')
  })

  it('stores the token and goes to the callbackURL', async () => {
    const api = stubApi([
      { method: 'POST', path: '/api/auth/login', body: { accessToken: 'jwt-1' } },
      { path: '/api/account/myprofile', body: { userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'Neo', connectedWallet: [] } },
    ])
    render('/authentication/sign-in?callbackURL=%2Fprofile%2Ftheme')
    await signIn('neo@example.com', 'secret')
    expect(await screen.findByTestId('location')).toHaveTextContent('/profile/theme')
    expect(Cookies.get(TOKEN_COOKIE)).toBe('jwt-1')
    expect(callBody(api, 0)).toEqual({ email: 'neo@example.com', password: 'secret' })
  })

  it('goes home without a callbackURL', async () => {
    stubApi([{ method: 'POST', path: '/api/auth/login', body: { accessToken: 'jwt-2' } }])
    render()
    await signIn('neo@example.com', 'secret')
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/)
  })

  it('shows the change-email info message with ref=change-email', async () => {
    stubApi([])
    render('/authentication/sign-in?ref=change-email')
    expect(await screen.findByText('Email changed. Login witn new credentials.')).toBeInTheDocument()
  })

  it('hides the Google button without a client id', () => {
    stubApi([])
    render()
    expect(screen.queryByTestId('google-sign-in')).toBeNull()
  })
})
