import Cookies from 'js-cookie'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, type UserProfile, useSession } from '@/lib/auth'
import { callBody, stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { ChangeEmailPage } from './change-email-page'
import { ChangePasswordPage } from './change-password-page'
import { ForgotPasswordPage } from './forgot-password-page'
import { PasswordResetPage } from './password-reset-page'
import { TOKEN_EXPIRY_DELAY_MS, TokenExpiryPage } from './token-expiry-page'

const me: UserProfile = {
  userId: 'u1',
  email: 'neo@example.com',
  username: 'neo',
  fullName: 'Thomas Anderson',
  mobileNumber: '1',
  avatar: '',
  bio: '',
  coverImage: '',
  authProvider: 'EMAIL',
  connectedWallet: [],
}
function signIn() {
  Cookies.set(TOKEN_COOKIE, 'tok')
  localStorage.setItem('userProfile', JSON.stringify(me))
  useSession.setState({ token: 'tok', user: me })
}
const click = (name: string) => userEvent.click(screen.getByRole('button', { name }))

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
  useSession.setState({ token: undefined, user: null })
})

describe('forgot password', () => {
  it('requires a valid e-mail and sends it', async () => {
    const api = stubApi([{ method: 'PUT', path: '/api/auth/reset-account-password', message: 'Reset link sent' }])
    renderPage(<ForgotPasswordPage />)
    await click('Send reset link')
    expect(await screen.findByText('Enter a valid email')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Email'), 'neo@example.com')
    await click('Send reset link')
    expect((await screen.findAllByText('Reset link sent')).length).toBeGreaterThan(0)
    expect(callBody(api, 0)).toEqual({ email: 'neo@example.com' })
  })
})

describe('set new password', () => {
  it("requires the password and a matching confirmation ('Password doesn't match')", async () => {
    stubApi([])
    renderPage(<PasswordResetPage />, { path: '/passwordreset/:token', at: '/passwordreset/tok123' })
    await click('Save password')
    expect(await screen.findByText('Required')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('New password'), 'abc')
    await userEvent.type(screen.getByLabelText('Confirm password'), 'abd')
    await click('Save password')
    expect(await screen.findByText("Password doesn't match")).toBeInTheDocument()
  })

  it('sends the token and goes to sign-in', async () => {
    const api = stubApi([{ method: 'PUT', path: '/api/auth/resetpassword-changepassword', message: 'Password changed' }])
    renderPage(<PasswordResetPage />, { path: '/passwordreset/:token', at: '/passwordreset/tok123' })
    await userEvent.type(screen.getByLabelText('New password'), 'abc')
    await userEvent.type(screen.getByLabelText('Confirm password'), 'abc')
    await click('Save password')
    expect(await screen.findByTestId('location')).toHaveTextContent('/authentication/sign-in')
    expect(callBody(api, 0)).toEqual({ resetPasswordToken: 'tok123', newPassword: 'abc', confirmPassword: 'abc' })
  })
})

describe('change password', () => {
  it('requires all three fields and a matching confirmation', async () => {
    signIn()
    stubApi([])
    renderPage(<ChangePasswordPage />)
    await click('Change password')
    expect(await screen.findAllByText('Required')).toHaveLength(3)
    await userEvent.type(screen.getByLabelText('Current password'), 'old')
    await userEvent.type(screen.getByLabelText('New password'), 'new1')
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new2')
    await click('Change password')
    expect(await screen.findByText("New password and confirm password doesn't match!")).toBeInTheDocument()
  })

  it('shows the success message and resets the form', async () => {
    signIn()
    const api = stubApi([{ method: 'PUT', path: '/api/auth/change-account-password', message: 'Password updated' }])
    renderPage(<ChangePasswordPage />)
    await userEvent.type(screen.getByLabelText('Current password'), 'old')
    await userEvent.type(screen.getByLabelText('New password'), 'new')
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new')
    await click('Change password')
    expect(await screen.findByText('Password updated')).toBeInTheDocument()
    expect(screen.getByLabelText('Current password')).toHaveValue('')
    expect(callBody(api, 0)).toEqual({ currentPassword: 'old', newPassword: 'new', confirmPassword: 'new' })
    expect((api.mock.calls[0][1] as RequestInit & { headers: Record<string, string> }).headers.Authorization).toBe('Bearer tok')
  })

  it('shows a failure as a warning with the server message', async () => {
    signIn()
    stubApi([{ method: 'PUT', path: '/api/auth/change-account-password', status: 400, message: 'Current password is wrong' }])
    renderPage(<ChangePasswordPage />)
    await userEvent.type(screen.getByLabelText('Current password'), 'bad')
    await userEvent.type(screen.getByLabelText('New password'), 'new')
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new')
    await click('Change password')
    expect(await screen.findByText('Current password is wrong')).toBeInTheDocument()
    expect(screen.getByLabelText('Current password')).toHaveValue('bad')
  })
})

describe('change e-mail', () => {
  it('validates the new e-mail, then the numeric code, then logs out to sign-in with ref=change-email', async () => {
    signIn()
    const api = stubApi([
      { path: '/api/account/myprofile', body: me },
      { method: 'PUT', path: '/api/auth/changeemail', message: 'Code sent' },
      { method: 'PUT', path: '/api/auth/verifyemailchange', message: 'Email changed' },
    ])
    renderPage(<ChangeEmailPage />)
    await click('Send code')
    expect(await screen.findByText('Enter a valid email')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('New email'), 'trinity@example.com')
    await click('Send code')
    expect(await screen.findByLabelText('Verification code')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Verification code'), 'abc')
    await click('Verify')
    expect(await screen.findByText('Verification code must be a number')).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText('Verification code'))
    await userEvent.type(screen.getByLabelText('Verification code'), '123456')
    await click('Verify')
    expect(await screen.findByTestId('location')).toHaveTextContent('/authentication/sign-in?ref=change-email')
    expect(await screen.findByText('Login again with new email and same credentials')).toBeInTheDocument()
    expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined()
    const puts = api.mock.calls.map((c, i) => [c[0], i] as const).filter(([url]) => String(url).startsWith('/api/auth/'))
    expect(callBody(api, puts[0][1])).toEqual({ newEmail: 'trinity@example.com' })
    expect(callBody(api, puts[1][1])).toEqual({ newEmail: 'trinity@example.com', verificationCode: '123456' })
  })

  it('shows a server error under the field', async () => {
    signIn()
    stubApi([{ method: 'PUT', path: '/api/auth/changeemail', status: 409, message: 'Email already in use' }])
    renderPage(<ChangeEmailPage />)
    await userEvent.type(screen.getByLabelText('New email'), 'taken@example.com')
    await click('Send code')
    expect(await screen.findByText('Email already in use')).toBeInTheDocument()
    expect(screen.queryByLabelText('Verification code')).toBeNull()
  })
})

describe('token expiry page', () => {
  it("logs out, says 'Token Expired. Logging Out...', then goes to sign-in with the callback", async () => {
    signIn()
    renderPage(<TokenExpiryPage />, { path: '/token-expiry', at: '/token-expiry?callbackURL=%2Fmyprofile' })
    expect(screen.getByText('Token Expired. Logging Out...')).toBeInTheDocument()
    expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined()
    expect(localStorage.getItem('userProfile')).toBeNull()
    expect(useSession.getState().token).toBeUndefined()
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/authentication/sign-in?callbackURL=%2Fmyprofile'), {
      timeout: TOKEN_EXPIRY_DELAY_MS + 2000,
    })
  })
})
