import Cookies from 'js-cookie'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, type UserProfile, useSession } from '@/lib/auth'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { EditProfilePage } from './edit-profile-page'

const me: UserProfile = {
  userId: 'u1',
  email: 'neo@example.com',
  username: 'neo',
  fullName: 'Thomas Anderson',
  mobileNumber: '5551234',
  avatar: '',
  bio: 'Hello',
  coverImage: '',
  authProvider: 'EMAIL',
  connectedWallet: [],
}

function setup() {
  Cookies.set(TOKEN_COOKIE, 'tok')
  useSession.setState({ token: 'tok', user: me })
  return stubApi([
    { path: '/api/account/myprofile', body: me },
    { method: 'PUT', path: '/api/account/myprofile', message: 'Profile updated' },
  ])
}

const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }))
const putForm = (api: ReturnType<typeof setup>) => {
  const call = api.mock.calls.find(([, init]) => (init as RequestInit | undefined)?.method === 'PUT')
  return (call?.[1] as RequestInit).body as FormData
}

describe('edit profile', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('shows the e-mail disabled and requires every field on submit', async () => {
    setup()
    renderPage(<EditProfilePage />)
    expect(await screen.findByDisplayValue('neo@example.com')).toBeDisabled()
    await waitFor(() => expect(screen.getByLabelText('Full name')).toHaveValue('Thomas Anderson'))
    for (const label of ['Full name', 'Username', 'Mobile number', 'Bio']) await userEvent.clear(screen.getByLabelText(label))
    expect(screen.queryByText('Required')).toBeNull()
    await save()
    expect(await screen.findAllByText('Required')).toHaveLength(4)
  })

  it('sends multipart data without the username when it did not change, then goes to the profile view', async () => {
    const api = setup()
    renderPage(<EditProfilePage />)
    await waitFor(() => expect(screen.getByLabelText('Full name')).toHaveValue('Thomas Anderson'))
    await userEvent.clear(screen.getByLabelText('Bio'))
    await userEvent.type(screen.getByLabelText('Bio'), 'New bio')
    await save()
    expect(await screen.findByTestId('location')).toHaveTextContent('/profile/user-profile')
    const form = putForm(api)
    expect(form).toBeInstanceOf(FormData)
    expect(form.get('fullName')).toBe('Thomas Anderson')
    expect(form.get('bio')).toBe('New bio')
    expect(form.get('mobileNumber')).toBe('5551234')
    expect(form.has('username')).toBe(false)
  })

  it('sends the username when it changed', async () => {
    const api = setup()
    renderPage(<EditProfilePage />)
    await waitFor(() => expect(screen.getByLabelText('Username')).toHaveValue('neo'))
    await userEvent.clear(screen.getByLabelText('Username'))
    await userEvent.type(screen.getByLabelText('Username'), 'theone')
    await save()
    await screen.findByTestId('location')
    expect(putForm(api).get('username')).toBe('theone')
  })

  it('shows the server message when saving fails', async () => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    useSession.setState({ token: 'tok', user: me })
    stubApi([
      { path: '/api/account/myprofile', body: me },
      { method: 'PUT', path: '/api/account/myprofile', status: 400, message: 'Username is not Available' },
    ])
    renderPage(<EditProfilePage />)
    await waitFor(() => expect(screen.getByLabelText('Full name')).toHaveValue('Thomas Anderson'))
    await save()
    expect(await screen.findByText('Username is not Available')).toBeInTheDocument()
  })
})

describe('edit profile username check', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('checks a changed username on blur and blocks saving when it is taken', async () => {
    Cookies.set(TOKEN_COOKIE, 'tok')
    useSession.setState({ token: 'tok', user: me })
    const api = stubApi([
      { path: '/api/account/myprofile', body: me },
      { path: '/api/auth/checkusername', message: 'Username is not Available' },
    ])
    renderPage(<EditProfilePage />)
    await waitFor(() => expect(screen.getByLabelText('Username')).toHaveValue('neo'))
    await userEvent.click(screen.getByLabelText('Username'))
    await userEvent.tab()
    expect(api.mock.calls.some(([url]) => String(url).startsWith('/api/auth/checkusername'))).toBe(false)
    await userEvent.clear(screen.getByLabelText('Username'))
    await userEvent.type(screen.getByLabelText('Username'), 'morpheus')
    await userEvent.tab()
    expect(await screen.findByText('Username is not Available')).toBeInTheDocument()
    expect(api.mock.calls.map(([url]) => url)).toContain('/api/auth/checkusername?username=morpheus')
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
  })

  it('refuses, at once, an avatar or cover whose content is no image, whatever its name, and takes a real one', async () => {
    const api = setup()
    renderPage(<EditProfilePage />)
    await waitFor(() => expect(screen.getByLabelText('Full name')).toHaveValue('Thomas Anderson'))
    const text = () => new File(['just some text'], 'me.png', { type: 'image/png' })
    fireEvent.change(screen.getByTestId('avatar-input'), { target: { files: [text()] } })
    expect(await screen.findByText('This file is not a PNG, JPEG, GIF, WebP or SVG image.')).toBeInTheDocument()
    fireEvent.change(screen.getByTestId('cover-input'), { target: { files: [text()] } })
    // The same message again is one snackbar, counted (identical messages collapse).
    await waitFor(() => expect(screen.getByTestId('snackbar-count')).toHaveTextContent('×2'))
    expect(screen.getAllByText('This file is not a PNG, JPEG, GIF, WebP or SVG image.')).toHaveLength(1)
    expect(screen.queryByRole('dialog')).toBeNull()

    // A GIF named .txt is an image the server takes for an avatar.
    fireEvent.change(screen.getByTestId('avatar-input'), { target: { files: [new File(['GIF89a\x01\x00\x01\x00'], 'me.txt', { type: 'text/plain' })] } })
    // No new refusal: still one snackbar, counted twice.
    expect(screen.getAllByText('This file is not a PNG, JPEG, GIF, WebP or SVG image.')).toHaveLength(1)
    expect(screen.getByTestId('snackbar-count')).toHaveTextContent('×2')
    await save()
    await waitFor(() => expect((putForm(api).get('avatar') as File | null)?.name).toBe('me.txt'))
  })
})
