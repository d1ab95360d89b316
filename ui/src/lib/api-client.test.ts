import Cookies from 'js-cookie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, apiRequest, errorMessage, WARM_MS, warmGet } from './api-client'
import { endSessionAfter, TOKEN_COOKIE, USER_PROFILE_KEY, useSession } from './auth'
import { registerNavigator } from './navigation'
import { useWalletStore } from './wallet-store'
import { jsonResponse } from '../testing/fetch'

describe('api client', () => {
  const navigate = vi.fn()
  beforeEach(() => {
    registerNavigator(navigate)
    window.history.pushState({}, '', '/profile/edit-profile?tab=1')
  })
  afterEach(() => {
    registerNavigator(null)
    vi.unstubAllGlobals()
    navigate.mockReset()
    useSession.setState({ token: undefined, user: null })
  })

  it('unwraps the envelope and returns body and message', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(200, { accessToken: 'abc' }, 'ok'))
    vi.stubGlobal('fetch', fetchMock)
    const result = await apiRequest<{ accessToken: string }>('/api/auth/login', {
      method: 'POST',
      json: { email: 'a@b.co', password: 'x' },
    })
    expect(result.body.accessToken).toBe('abc')
    expect(result.message).toBe('ok')
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/api/auth/login')
    expect(init.method).toBe('POST')
    expect(init.headers['Content-Type']).toBe('application/json')
    expect(JSON.parse(init.body)).toEqual({ email: 'a@b.co', password: 'x' })
    expect(init.headers.Authorization).toBeUndefined()
  })

  it('attaches the bearer token from the cookie', async () => {
    Cookies.set(TOKEN_COOKIE, 'tok-123')
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(200, {}, ''))
    vi.stubGlobal('fetch', fetchMock)
    await apiRequest('/api/account/myprofile')
    expect(fetchMock.mock.calls[0][1].headers.Authorization).toBe('Bearer tok-123')
  })

  it('adds query parameters', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(200, {}, 'Username is Available'))
    vi.stubGlobal('fetch', fetchMock)
    await apiRequest('/api/auth/checkusername', { query: { username: 'neo', skip: undefined } })
    expect(fetchMock.mock.calls[0][0]).toBe('/api/auth/checkusername?username=neo')
  })

  it('throws an ApiError with the server message on failure', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(403, null, 'Cannot Login Email Not Verified, OTP send to your email')))
    const error = await apiRequest('/api/auth/login', { method: 'POST', json: {} }).catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error.statuscode).toBe(403)
    expect(errorMessage(error, 'fallback')).toBe('Cannot Login Email Not Verified, OTP send to your email')
    expect(navigate).not.toHaveBeenCalled()
  })

  it('uses the fallback when the response is not an envelope (API missing)', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html></html>', { status: 200 })))
    const error = await apiRequest('/api/config').catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(errorMessage(error, 'fallback')).toBe('fallback')
  })

  it.each([401, 410])('on %i goes to /token-expiry with the callback, which clears the session', async (status) => {
    Cookies.set(TOKEN_COOKIE, 'expired')
    localStorage.setItem(USER_PROFILE_KEY, JSON.stringify({ email: 'a@b.co' }))
    useSession.setState({ token: 'expired', user: { email: 'a@b.co' } as never })
    useWalletStore.getState().setWallet({ walletType: 'Metamask', walletAddress: '0xabc', connectorId: 'metaMask' })
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(status, null, 'Token expired')))

    await expect(apiRequest('/api/account/myprofile')).rejects.toBeInstanceOf(ApiError)

    expect(navigate).toHaveBeenCalledWith('/token-expiry?callbackURL=%2Fprofile%2Fedit-profile%3Ftab%3D1', undefined)
    // Not cleared here: the current page's login guard would redirect to sign-in before
    // /token-expiry shows. The token-expiry page clears it (its own test checks that).
    expect(Cookies.get(TOKEN_COOKIE)).toBe('expired')
  })
})

describe('api client without a session', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    registerNavigator(null)
  })

  it('sends no bearer and never treats a 401 as an expired session when auth is false', async () => {
    const navigate = vi.fn()
    registerNavigator(navigate)
    Cookies.set(TOKEN_COOKIE, 'stale')
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(401, null, 'Wrong email or password'))
    vi.stubGlobal('fetch', fetchMock)
    const error = await apiRequest('/api/auth/login', { method: 'POST', json: {}, auth: false }).catch((e) => e)
    expect(fetchMock.mock.calls[0][1].headers.Authorization).toBeUndefined()
    expect(errorMessage(error, 'x')).toBe('Wrong email or password')
    expect(navigate).not.toHaveBeenCalled()
    expect(Cookies.get(TOKEN_COOKIE)).toBe('stale')
  })
})

describe('api client checking credentials', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    registerNavigator(null)
    Cookies.remove(TOKEN_COOKIE)
  })

  it('keeps the session on a 401 of a call that checks a password, but not on a 410', async () => {
    const navigate = vi.fn()
    registerNavigator(navigate)
    Cookies.set(TOKEN_COOKIE, 'live')
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(401, null, 'Invalid credentials')))
    const error = await apiRequest('/api/account/delete', { method: 'POST', json: {}, checksCredentials: true }).catch((e) => e)
    expect(errorMessage(error, 'x')).toBe('Invalid credentials')
    expect(navigate).not.toHaveBeenCalled()

    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(410, null, 'Token expired')))
    await apiRequest('/api/account/delete', { method: 'POST', json: {}, checksCredentials: true }).catch(() => undefined)
    expect(navigate).toHaveBeenCalledTimes(1)
  })
})

describe('warmed GETs', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
    Cookies.remove(TOKEN_COOKIE)
  })

  it('hands a warmed answer to the same call once, and its body to the warmer', async () => {
    const fetchMock = vi.fn().mockImplementation(async () => jsonResponse(200, { data: [1, 2] }, 'ok'))
    vi.stubGlobal('fetch', fetchMock)
    const warmed = warmGet<{ data: number[] }>('/api/list', { page: 1, limit: 9, search: undefined })
    const first = await apiRequest<{ data: number[] }>('/api/list', { query: { page: 1, limit: 9 } })
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(fetchMock.mock.calls[0][0]).toBe('/api/list?page=1&limit=9')
    expect(first.body.data).toEqual([1, 2])
    expect((await warmed)?.data).toEqual([1, 2])
    // Taken once: the next call asks the server again.
    await apiRequest('/api/list', { query: { page: 1, limit: 9 } })
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('is not taken by another URL, another session, another method or after it went stale', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const fetchMock = vi.fn().mockImplementation(async () => jsonResponse(200, {}, ''))
    vi.stubGlobal('fetch', fetchMock)
    void warmGet('/api/list', { page: 1 })
    await apiRequest('/api/list', { query: { page: 2 } })
    Cookies.set(TOKEN_COOKIE, 'tok-1')
    await apiRequest('/api/list', { query: { page: 1 } })
    expect(fetchMock.mock.calls[2][1].headers.Authorization).toBe('Bearer tok-1')
    void warmGet('/api/list', { page: 1 })
    await apiRequest('/api/list', { method: 'POST', query: { page: 1 } })
    vi.setSystemTime(Date.now() + WARM_MS)
    await apiRequest('/api/list', { query: { page: 1 } })
    expect(fetchMock).toHaveBeenCalledTimes(6)
  })

  it('does not start a GET already warming twice', async () => {
    const fetchMock = vi.fn().mockImplementation(async () => jsonResponse(200, { n: 1 }, ''))
    vi.stubGlobal('fetch', fetchMock)
    const [first, second] = [warmGet<{ n: number }>('/api/list'), warmGet<{ n: number }>('/api/list')]
    expect((await second)?.n).toBe(1)
    expect(await first).toEqual(await second)
    await apiRequest('/api/list')
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('leaves a failure to the call that takes it, and resolves undefined for the warmer', async () => {
    vi.stubGlobal('fetch', vi.fn().mockImplementation(async () => jsonResponse(500, null, 'Server error')))
    const warmed = warmGet('/api/list')
    await expect(apiRequest('/api/list')).rejects.toMatchObject({ statuscode: 500, message: 'Server error' })
    expect(await warmed).toBeUndefined()
  })
})

describe('reading after this tab\'s writes', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.resetModules()
  })

  it('sends the highest log position its writes were answered with on later reads, not on writes', async () => {
    vi.resetModules()
    const client = await import('./api-client')
    const answer = (position?: string) => {
      const response = jsonResponse(200, {}, 'ok')
      if (position) response.headers.set(client.LOG_POSITION_HEADER, position)
      return response
    }
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    const sent = (call: number) => fetchMock.mock.calls[call][1].headers[client.LOG_POSITION_HEADER]

    fetchMock.mockResolvedValueOnce(answer())
    await client.apiRequest('/api/nft/explore')
    expect(sent(0)).toBeUndefined()

    fetchMock.mockResolvedValueOnce(answer('41'))
    await client.apiRequest('/api/nft/like/80001-1', { method: 'PUT' })
    fetchMock.mockResolvedValueOnce(answer('57'))
    await client.apiRequest('/api/account/myprofile', { method: 'PUT', json: { fullName: 'A' } })
    // An older position (another server's answer) does not lower it; a GET's header is not a write's.
    fetchMock.mockResolvedValueOnce(answer('50'))
    await client.apiRequest('/api/collection', { formData: new FormData() })
    fetchMock.mockResolvedValueOnce(answer('99'))
    await client.apiRequest('/api/notifications')
    expect(sent(1)).toBeUndefined()

    fetchMock.mockResolvedValueOnce(answer())
    await client.apiRequest('/api/account/getuserprofile/u1')
    expect(sent(5)).toBe('57')
    fetchMock.mockResolvedValueOnce(answer())
    await client.warmGet('/api/nft/explore')
    expect(sent(6)).toBe('57')
  })
})

describe('ending the session around a navigation', () => {
  afterEach(() => {
    Cookies.remove(TOKEN_COOKIE)
    useSession.setState({ token: undefined, user: null })
  })

  it('drops the token before the navigation and the rest of the session after it', async () => {
    Cookies.set(TOKEN_COOKIE, 'gone-soon')
    useSession.setState({ token: 'gone-soon', user: { email: 'a@b.co' } as never })
    const seen: { cookie: string | undefined; token: string | undefined }[] = []
    await endSessionAfter(async () => {
      seen.push({ cookie: Cookies.get(TOKEN_COOKIE), token: useSession.getState().token })
    })
    expect(seen).toEqual([{ cookie: undefined, token: 'gone-soon' }])
    expect(useSession.getState().token).toBeUndefined()
    expect(useSession.getState().user).toBeNull()
  })
})
