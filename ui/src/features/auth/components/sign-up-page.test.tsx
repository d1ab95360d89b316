import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { callBody, stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { SignUpPage } from './sign-up-page'

const render = () => renderPage(<SignUpPage />, { path: '/authentication/sign-up', at: '/authentication/sign-up' })
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Sign up' }))

async function fill(values: Partial<Record<'Email' | 'Full name' | 'Username' | 'Password' | 'Confirm password', string>>) {
  for (const [label, value] of Object.entries(values)) await userEvent.type(screen.getByLabelText(label), value)
}

describe('sign-up form', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('validates on submit only, with the spec messages', async () => {
    stubApi([])
    render()
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email')
    await userEvent.tab()
    expect(screen.queryByText('Enter a valid email')).toBeNull()
    await submit()
    expect(await screen.findByText('Enter a valid email')).toBeInTheDocument()
    expect(screen.getAllByText('Required')).toHaveLength(3)
  })

  it("stops each field at the API's limit, so typing never meets its 400", async () => {
    stubApi([])
    render()
    const limits = { Email: 254, 'Full name': 100, Username: 30, Password: 128, 'Confirm password': 128 }
    for (const [label, most] of Object.entries(limits)) expect([label, screen.getByLabelText(label).getAttribute('maxlength')]).toEqual([label, String(most)])
    await userEvent.type(screen.getByLabelText('Username'), 'u'.repeat(40))
    expect(screen.getByLabelText('Username')).toHaveValue('u'.repeat(30))
  })

  it("says 'Password doesn't match' when the confirmation differs", async () => {
    stubApi([{ path: '/api/auth/checkusername', message: 'Username is Available' }])
    render()
    await fill({ Email: 'neo@example.com', 'Full name': 'Neo', Username: 'neo', Password: 'secret1', 'Confirm password': 'secret2' })
    await submit()
    expect(await screen.findByText("Password doesn't match")).toBeInTheDocument()
  })

  it("checks the username on blur; 'Username is not Available' disables the submit", async () => {
    const api = stubApi([{ path: '/api/auth/checkusername', message: 'Username is not Available' }])
    render()
    await fill({ Username: 'taken' })
    await userEvent.tab()
    expect(await screen.findByText('Username is not Available')).toBeInTheDocument()
    expect(api.mock.calls[0][0]).toBe('/api/auth/checkusername?username=taken')
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeDisabled()
  })

  it('shows another success text as a warning and does not register', async () => {
    const api = stubApi([{ path: '/api/auth/checkusername', message: 'Username is reserved' }])
    render()
    await fill({ Email: 'neo@example.com', 'Full name': 'Neo', Username: 'admin', Password: 'pw', 'Confirm password': 'pw' })
    await userEvent.tab()
    expect(await screen.findByText('Username is reserved')).toBeInTheDocument()
    await submit()
    await waitFor(() => expect(api.mock.calls.every(([url]) => !String(url).startsWith('/api/auth/register'))).toBe(true))
  })

  it('registers with the API payload and goes to the e-mail verification screen', async () => {
    const api = stubApi([
      { path: '/api/auth/checkusername', message: 'Username is Available' },
      { method: 'POST', path: '/api/auth/register', message: 'Verification code sent' },
    ])
    render()
    await fill({ Email: 'neo@example.com', 'Full name': 'Thomas Anderson', Username: 'neo', Password: 'secret', 'Confirm password': 'secret' })
    await userEvent.tab()
    expect(await screen.findByText('Username is Available')).toBeInTheDocument()
    await submit()
    expect(await screen.findByTestId('location')).toHaveTextContent('/authentication/email-verification/neo%40example.com')
    const index = api.mock.calls.findIndex(([url]) => url === '/api/auth/register')
    expect(callBody(api, index)).toEqual({ email: 'neo@example.com', fullName: 'Thomas Anderson', username: 'neo', password: 'secret', confirmPassword: 'secret' })
  })
})
