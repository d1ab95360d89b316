import Cookies from 'js-cookie'
import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, type UserProfile, useSession } from '@/lib/auth'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { ProfileViewPage } from './profile-view-page'
import { UserProfilePage } from './user-profile-page'

const me: UserProfile = {
  userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'thomas anderson', mobileNumber: '555', avatar: '', bio: '', coverImage: '', authProvider: 'EMAIL', connectedWallet: [],
}
function signIn() {
  Cookies.set(TOKEN_COOKIE, 'tok')
  useSession.setState({ token: 'tok', user: me })
}

describe('profiles', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('profile view: initials, name, @username, bio placeholder and contact info', async () => {
    signIn()
    stubApi([{ path: '/api/account/myprofile', body: me }])
    renderPage(<ProfileViewPage />)
    expect(await screen.findByText('TA')).toBeInTheDocument()
    expect(screen.getByText('thomas anderson')).toBeInTheDocument()
    expect(screen.getByText('@neo')).toBeInTheDocument()
    expect(screen.getByText('Write about yourself!')).toBeInTheDocument()
    expect(screen.getByText('neo@example.com')).toBeInTheDocument()
    expect(screen.getByText('555')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Edit profile/ })).toHaveAttribute('href', '/profile/edit-profile')
  })

  it("another user's page loads the public profile", async () => {
    const api = stubApi([{ path: '/api/account/getuserprofile/u2', body: { userId: 'u2', username: 'artemis', fullName: 'Artemis Vale', avatar: '', bio: 'Painter', coverImage: '' } }])
    renderPage(<UserProfilePage />, { path: '/user/:userId', at: '/user/u2' })
    expect(await screen.findByText('Artemis Vale')).toBeInTheDocument()
    expect(screen.getByText('@artemis')).toBeInTheDocument()
    expect(screen.getByTestId('target-menu')).toBeInTheDocument()
    expect(api.mock.calls[0][0]).toBe('/api/account/getuserprofile/u2')
  })

  it("a deleted account's page says Deleted user, with no handle and no actions, and keeps its NFT tabs", async () => {
    const erased = { userId: 'u3', username: 'deleted-0123456789abcdefghijkl', fullName: '', avatar: '', bio: '', coverImage: '', erased: true }
    stubApi([{ path: '/api/account/getuserprofile/u3', body: erased }])
    renderPage(<UserProfilePage />, { path: '/user/:userId', at: '/user/u3' })
    expect(await screen.findByRole('heading', { level: 1, name: 'Deleted user' })).toBeInTheDocument()
    expect(screen.getByTestId('deleted-user')).toHaveTextContent(/stays public under its wallet address/)
    expect(screen.queryByText(/@deleted-/)).toBeNull()
    expect(screen.queryByTestId('target-menu')).toBeNull()
    expect(screen.getByRole('tab', { name: /Owned/ })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: /Created/ })).toBeInTheDocument()
    expect(document.title).toMatch(/^Deleted user \|/)
  })

  it('the signed-in user opening their own id goes to /myprofile', async () => {
    signIn()
    stubApi([{ path: '/api/account/myprofile', body: me }])
    renderPage(<UserProfilePage />, { path: '/user/:userId', at: '/user/u1' })
    expect(await screen.findByTestId('location')).toHaveTextContent('/myprofile')
  })
})
