import { afterEach, describe, expect, it, vi } from 'vitest'

/** The browser of someone who blocks cookies and site data: reading localStorage throws. */
function blockSiteStorage() {
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    get() {
      throw new DOMException("Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", 'SecurityError')
    },
  })
}

const realLocalStorage = Object.getOwnPropertyDescriptor(window, 'localStorage')!

describe('site storage', () => {
  afterEach(() => {
    Object.defineProperty(window, 'localStorage', realLocalStorage)
    vi.resetModules()
  })

  it('is the real local storage when the browser allows it', async () => {
    vi.resetModules()
    const { siteStorage, siteStorageBlocked } = await import('./site-storage')
    siteStorage.setItem('k', 'v')
    expect(localStorage.getItem('k')).toBe('v')
    expect(siteStorageBlocked()).toBe(false)
    localStorage.removeItem('k')
  })

  it('falls back to memory, says it is blocked, and the modules that keep things load and work', async () => {
    blockSiteStorage()
    expect(() => window.localStorage).toThrow(/Access is denied/)
    vi.resetModules()
    const { siteStorage, siteStorageBlocked } = await import('./site-storage')
    expect(siteStorageBlocked()).toBe(true)
    siteStorage.setItem('k', 'v')
    expect(siteStorage.getItem('k')).toBe('v')
    siteStorage.removeItem('k')
    expect(siteStorage.getItem('k')).toBeNull()

    // Each of these read storage as they load (the session, the wallet, the cart) or when used.
    const { useSession, getToken } = await import('./auth')
    const { useCartStore } = await import('./cart/store')
    const { useWalletStore } = await import('./wallet-store')
    const { getDevWalletIndex, setDevWalletIndex } = await import('./dev-wallet-connector')
    const { setLanguage } = await import('./i18n')
    expect(useSession.getState().user).toBeNull()

    // Signing in lasts for the page: the token and profile are kept in memory.
    useSession.getState().setToken('tok')
    expect(getToken()).toBe('tok')
    useSession.getState().setUser({ userId: 'u1', email: 'a@b.c', username: 'a', fullName: 'A', mobileNumber: '', avatar: '', bio: '', coverImage: '', authProvider: 'EMAIL', connectedWallet: [] })
    expect(siteStorage.getItem('userProfile')).toContain('"u1"')
    useSession.getState().clear()
    expect(getToken()).toBeUndefined()

    useCartStore.getState().add({ _id: 'n1', nftTokenId: '1', title: 'One', file: '', fixedPrice: '1', fixedPriceWei: '1000000000000000000' })
    expect(useCartStore.getState().items).toHaveLength(1)
    expect(siteStorage.getItem('cart')).toContain('n1')
    useWalletStore.getState().openDialog()
    expect(useWalletStore.getState().dialogOpen).toBe(true)
    setDevWalletIndex(3)
    expect(getDevWalletIndex()).toBe(3)
    await expect(setLanguage('fr')).resolves.toBeUndefined()
  })

  it('is blocked when cookies are refused, though local storage works', async () => {
    vi.resetModules()
    const cookieEnabled = vi.spyOn(navigator, 'cookieEnabled', 'get').mockReturnValue(false)
    const { siteStorageBlocked } = await import('./site-storage')
    expect(siteStorageBlocked()).toBe(true)
    cookieEnabled.mockRestore()
  })
})
