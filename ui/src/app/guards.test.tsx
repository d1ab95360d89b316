import Cookies from 'js-cookie'
import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, type UserProfile, useSession } from '@/lib/auth'
import { LocationProbe, renderRoutes } from '@/testing/render'
import { GuestOnly, NotGoogle, RequireAuth } from './guards'

const profile = (authProvider: 'EMAIL' | 'GOOGLE'): UserProfile => ({
  userId: 'u1',
  email: 'neo@example.com',
  username: 'neo',
  fullName: 'Thomas Anderson',
  mobileNumber: '123',
  avatar: '',
  bio: '',
  coverImage: '',
  authProvider,
  connectedWallet: [],
})

function signIn(user: UserProfile | null) {
  Cookies.set(TOKEN_COOKIE, 'tok')
  useSession.setState({ token: 'tok', user })
}

describe('guards', () => {
  afterEach(() => {
    useSession.setState({ token: undefined, user: null })
    vi.unstubAllGlobals()
  })

  it('sends a visitor of a login-protected route to sign-in with the current path as callbackURL', async () => {
    renderRoutes(
      [
        { path: '/profile/edit-profile', element: <RequireAuth><p>secret page</p></RequireAuth> },
        { path: '*', element: <LocationProbe /> },
      ],
      '/profile/edit-profile?x=1',
    )
    expect(await screen.findByTestId('location')).toHaveTextContent('/authentication/sign-in?callbackURL=%2Fprofile%2Fedit-profile%3Fx%3D1')
    expect(screen.queryByText('secret page')).toBeNull()
  })

  it('lets a user with the token cookie in', async () => {
    signIn(profile('EMAIL'))
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{}')))
    renderRoutes([{ path: '/myprofile', element: <RequireAuth><p>secret page</p></RequireAuth> }], '/myprofile')
    expect(await screen.findByText('secret page')).toBeInTheDocument()
  })

  it('redirects a signed-in user away from a guest-only route to /', async () => {
    signIn(profile('EMAIL'))
    renderRoutes(
      [
        { path: '/authentication/sign-in', element: <GuestOnly><p>sign in form</p></GuestOnly> },
        { path: '*', element: <LocationProbe /> },
      ],
      '/authentication/sign-in',
    )
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/)
    expect(screen.queryByText('sign in form')).toBeNull()
  })

  it('shows a guest-only route to a visitor', async () => {
    renderRoutes([{ path: '/authentication/sign-up', element: <GuestOnly><p>sign up form</p></GuestOnly> }], '/authentication/sign-up')
    expect(await screen.findByText('sign up form')).toBeInTheDocument()
  })

  it('sends GOOGLE users away from change e-mail with the message', async () => {
    signIn(profile('GOOGLE'))
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify({ statuscode: 200, body: profile('GOOGLE'), message: '' }))))
    renderRoutes(
      [
        { path: '/profile/change-email', element: <NotGoogle messageKey="changeEmail.googleNotAllowed"><p>change email form</p></NotGoogle> },
        { path: '*', element: <LocationProbe /> },
      ],
      '/profile/change-email',
    )
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/)
    expect(await screen.findByText("You can't change your email")).toBeInTheDocument()
    expect(screen.queryByText('change email form')).toBeNull()
  })

  it('lets EMAIL users change their password', async () => {
    signIn(profile('EMAIL'))
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify({ statuscode: 200, body: profile('EMAIL'), message: '' }))))
    renderRoutes([{ path: '/profile/change-password', element: <NotGoogle><p>change password form</p></NotGoogle> }], '/profile/change-password')
    expect(await screen.findByText('change password form')).toBeInTheDocument()
  })
})
