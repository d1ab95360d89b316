import Cookies from 'js-cookie'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, useSession } from '@/lib/auth'
import { callBody, stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { ActivatePage } from './activate-page'
import { EmailVerificationPage } from './email-verification-page'

describe('verification', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('shows the field, the hint and validates the code on submit', async () => {
    stubApi([])
    renderPage(<EmailVerificationPage />, { path: '/authentication/email-verification/:email', at: '/authentication/email-verification/neo@example.com' })
    expect(screen.getByLabelText('Verification Code')).toBeInTheDocument()
    expect(screen.getByText('enter the verification code we just send you')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(await screen.findByText('Required')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Verification Code'), '12ab')
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(await screen.findByText('Verification code must be a number')).toBeInTheDocument()
  })

  it('verifies, signs in and goes home', async () => {
    const api = stubApi([{ method: 'POST', path: '/api/auth/verifyaccount', body: { accessToken: 'jwt-v' } }])
    renderPage(<EmailVerificationPage />, { path: '/authentication/email-verification/:email', at: '/authentication/email-verification/neo@example.com' })
    await userEvent.type(screen.getByLabelText('Verification Code'), '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/)
    expect(callBody(api, 0)).toEqual({ verificationCode: '123456', email: 'neo@example.com' })
    expect(Cookies.get(TOKEN_COOKIE)).toBe('jwt-v')
  })

  it('shows the server error under the field', async () => {
    stubApi([{ method: 'POST', path: '/api/auth/verifyaccount', status: 400, message: 'Invalid verification code' }])
    renderPage(<EmailVerificationPage />, { path: '/authentication/email-verification/:email', at: '/authentication/email-verification/neo@example.com' })
    await userEvent.type(screen.getByLabelText('Verification Code'), '999999')
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(await screen.findByText('Invalid verification code')).toBeInTheDocument()
  })

  it('submits automatically when the activation link carries a token', async () => {
    const api = stubApi([{ method: 'POST', path: '/api/auth/verifyaccount', body: { accessToken: 'jwt-a' } }])
    renderPage(<ActivatePage />, { path: '/activate/:email/:token', at: '/activate/neo@example.com/424242' })
    await waitFor(() => expect(api).toHaveBeenCalledTimes(1))
    expect(callBody(api, 0)).toEqual({ verificationCode: '424242', email: 'neo@example.com' })
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/)
  })

  it('does not submit automatically with the -1 token', async () => {
    const api = stubApi([])
    renderPage(<ActivatePage />, { path: '/activate/:email/:token', at: '/activate/neo@example.com/-1' })
    expect(await screen.findByLabelText('Verification Code')).toHaveValue('')
    expect(api).not.toHaveBeenCalled()
  })

  it("treats 'User is already verified' as success and goes to sign-in", async () => {
    stubApi([{ method: 'POST', path: '/api/auth/verifyaccount', status: 400, message: 'User is already verified' }])
    renderPage(<ActivatePage />, { path: '/activate/:email/:token', at: '/activate/neo@example.com/111111' })
    expect(await screen.findByTestId('location')).toHaveTextContent('/authentication/sign-in')
  })
})
