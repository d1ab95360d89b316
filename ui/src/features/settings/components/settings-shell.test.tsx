import Cookies from 'js-cookie'
import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, type UserProfile, useSession } from '@/lib/auth'
import { stubApi } from '@/testing/fetch'
import { renderRoutes } from '@/testing/render'
import { SettingsShell } from './settings-shell'

const user = (authProvider: 'EMAIL' | 'GOOGLE'): UserProfile => ({
  userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'Neo', mobileNumber: '', avatar: '', bio: '', coverImage: '', authProvider, connectedWallet: [],
})

function render(provider: 'EMAIL' | 'GOOGLE') {
  Cookies.set(TOKEN_COOKIE, 'tok')
  useSession.setState({ token: 'tok', user: user(provider) })
  stubApi([{ path: '/api/account/myprofile', body: user(provider) }])
  renderRoutes([{ path: '/profile', element: <SettingsShell />, children: [{ path: 'theme', element: <p>theme page</p> }] }], '/profile/theme')
  // The side menu (wide screens) and the row of links that stands for it on a phone.
  const navs = screen.getAllByRole('navigation')
  expect(navs).toHaveLength(2)
  expect(navs[0]).toHaveAttribute('data-testid', 'settings-mobile-menu')
  return navs.map((nav) => within(nav))
}

describe('settings side menu', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('lists the eight items and highlights the active one, in both menus', () => {
    for (const nav of render('EMAIL')) {
      expect(nav.getAllByRole('link').map((l) => l.textContent)).toEqual(['User Profile', 'Language', 'Theme', 'API keys', 'Webhooks', 'Change Password', 'Change Email', 'Privacy'])
      expect(nav.getByRole('link', { name: 'Theme' })).toHaveAttribute('aria-current', 'page')
    }
  })

  it('hides Change Password and Change Email for GOOGLE users', () => {
    for (const nav of render('GOOGLE')) {
      expect(nav.getAllByRole('link').map((l) => l.textContent)).toEqual(['User Profile', 'Language', 'Theme', 'API keys', 'Webhooks', 'Privacy'])
    }
  })

  it('shows the page title for narrow screens', () => {
    render('EMAIL')
    expect(screen.getByTestId('settings-mobile-title')).toHaveTextContent('Theme')
  })
})
