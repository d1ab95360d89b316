// vitest: isolated (see mockingTestFiles in vite.config.ts: its avatar menu item)
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { MyProfilePage } from '@/features/profile/components/my-profile-page'
import { useSession } from '@/lib/auth'
import { stubApi } from '@/testing/fetch'
import { LocationProbe, renderRoutes } from '@/testing/render'
import { RootLayout } from './root-layout'

const me = { userId: 'u1', email: 'ada@demo.example.com', username: 'ada_lumen', fullName: 'Ada Lumen', mobileNumber: '', avatar: '', bio: '', coverImage: '', authProvider: 'EMAIL' as const, connectedWallet: [] }

function renderShell(at = '/') {
  return renderRoutes(
    [
      {
        element: <RootLayout />,
        children: [
          { path: '/', element: <p>home</p> },
          { path: '/myprofile', element: <MyProfilePage /> },
          { path: '*', element: <LocationProbe /> },
        ],
      },
    ],
    at,
  )
}

/** The bell's and the live stream's calls, answered so the shell settles (no error states re-rendering it). */
const QUIET_LIVE = [
  { path: '/api/notifications/unread', body: { unread: 0 } },
  { path: '/api/notifications/settings', body: { muted: [], email: [] } },
]

describe('the shell links', () => {
  afterEach(() => useSession.setState({ token: undefined, user: null }))

  it('reaches /favourites from the avatar menu', async () => {
    stubApi([{ path: '/api/account/myprofile', body: me }, ...QUIET_LIVE])
    useSession.setState({ token: 'tok', user: me })
    renderShell()
    // The first render of the shell in a worker loads its lazy parts: slow on a loaded machine.
    await userEvent.click(await screen.findByTestId('avatar-menu', {}, { timeout: 15000 }))
    const item = await screen.findByRole('menuitem', { name: 'Favourites' }, { timeout: 15000 })
    // Chosen once the menu has finished opening (a click during its opening animation only closes it).
    await waitFor(() => expect(screen.getByRole('menu')).toHaveAttribute('data-state', 'open'))
    await userEvent.click(item)
    expect(await screen.findByTestId('location', {}, { timeout: 15000 })).toHaveTextContent('/favourites')
  })

  it('reaches /favourites from the drawer of narrow screens', async () => {
    stubApi([{ path: '/api/account/myprofile', body: me }, ...QUIET_LIVE])
    useSession.setState({ token: 'tok', user: me })
    renderShell()
    await userEvent.click(screen.getByTestId('drawer-button'))
    const drawer = await screen.findByTestId('mobile-drawer', {}, { timeout: 15000 })
    await userEvent.click(within(drawer).getByRole('link', { name: 'Favourites' }))
    expect(await screen.findByTestId('location')).toHaveTextContent('/favourites')
  })

  it('links /favourites from the own profile page', async () => {
    stubApi([{ path: '/api/account/myprofile', body: me }, { path: /\/api\//, body: { data: [], total: 0 } }])
    useSession.setState({ token: 'tok', user: me, userFresh: true })
    renderShell('/myprofile')
    const link = await screen.findByTestId('profile-favourites')
    expect(link).toHaveAttribute('href', '/favourites')
    expect(link).toHaveTextContent('Favourites')
  })

  it('gives a visitor on a phone a way to log in from the header', async () => {
    stubApi([])
    renderShell()
    const login = screen.getByTestId('mobile-login')
    expect(login).toHaveAttribute('href', '/authentication/sign-in')
    await userEvent.click(login)
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/authentication/sign-in'))
  })
})
