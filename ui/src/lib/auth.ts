import Cookies from 'js-cookie'
import { create } from 'zustand'
import { siteStorage, siteStorageBlocked } from './site-storage'
import { useWalletStore } from './wallet-store'

/**
 * The session: the access token lives in the `secret` cookie (1 day, as the spec says) and the
 * signed-in user's profile is kept in local storage under `userProfile` (both in memory when the
 * browser blocks site storage: see site-storage.ts).
 * The profile endpoint itself lives in `use-user.ts`; both are shared because every feature
 * (guards, top bar, settings menu, wallet tampering check) needs them.
 */
export const TOKEN_COOKIE = 'secret'
export const USER_PROFILE_KEY = 'userProfile'
export const TOKEN_LIFETIME_DAYS = 1

export type ConnectedWallet = { walletProvider: string; walletAddress: string }

export type UserProfile = {
  userId: string
  email: string
  username: string
  fullName: string
  mobileNumber: string
  avatar: string
  bio: string
  coverImage: string
  authProvider: 'EMAIL' | 'GOOGLE'
  connectedWallet: ConnectedWallet[]
}

/** The token of this page when the browser keeps no cookies (see site-storage.ts): signing in lasts until it closes. */
let tokenInMemory: string | undefined

export function getToken(): string | undefined {
  try {
    return Cookies.get(TOKEN_COOKIE) || (siteStorageBlocked() ? tokenInMemory : undefined)
  } catch {
    // A frame without cookie access throws on document.cookie.
    return tokenInMemory
  }
}

function readStoredUser(): UserProfile | null {
  // A stored profile without its token cookie (expired after a day) is stale: drop it, or the
  // guest-only pages would keep redirecting a signed-out user home.
  if (!getToken()) {
    siteStorage.removeItem(USER_PROFILE_KEY)
    return null
  }
  try {
    const raw = siteStorage.getItem(USER_PROFILE_KEY)
    return raw ? (JSON.parse(raw) as UserProfile) : null
  } catch {
    return null
  }
}

type SessionState = {
  token: string | undefined
  user: UserProfile | null
  /** True once the profile was read from the server in this page load (not just local storage). */
  userFresh: boolean
  setToken: (token: string) => void
  setUser: (user: UserProfile) => void
  clear: () => void
}

const sessionListeners = new Set<() => void>()

/** Called whenever the session is cleared (logout, 401/410): e.g. to disconnect the wallet. */
export function onSessionCleared(listener: () => void) {
  sessionListeners.add(listener)
  return () => {
    sessionListeners.delete(listener)
  }
}

export const useSession = create<SessionState>()((set) => ({
  token: getToken(),
  user: readStoredUser(),
  userFresh: false,
  setToken: (token) => {
    tokenInMemory = token
    try {
      Cookies.set(TOKEN_COOKIE, token, {
        expires: TOKEN_LIFETIME_DAYS,
        sameSite: 'strict',
        secure: window.location.protocol === 'https:',
      })
    } catch {
      // Cookies refused: the token stays in memory (getToken).
    }
    set({ token })
  },
  setUser: (user) => {
    siteStorage.setItem(USER_PROFILE_KEY, JSON.stringify(user))
    set({ user, userFresh: true })
  },
  clear: () => {
    tokenInMemory = undefined
    try {
      Cookies.remove(TOKEN_COOKIE)
    } catch {
      // Cookies refused: there is none to remove.
    }
    siteStorage.removeItem(USER_PROFILE_KEY)
    set({ token: undefined, user: null, userFresh: false })
    useWalletStore.getState().clearWallet()
    sessionListeners.forEach((listener) => listener())
  },
}))

/** Clears the cookie, the stored user and (through the listeners) the wallet state. */
export function clearSession() {
  useSession.getState().clear()
}

/**
 * Ends the session as logout does, around `leave`, a navigation away from the signed-in pages
 * (after the account was deleted): the token goes at once, so no request on the way carries a
 * token the server no longer accepts (its 401 would go through /token-expiry), and the rest once
 * `leave` has finished, so the login guard of the page being left does not send the user to
 * sign-in first.
 */
export async function endSessionAfter(leave: () => unknown) {
  tokenInMemory = undefined
  try {
    Cookies.remove(TOKEN_COOKIE)
  } catch {
    // Cookies refused: there is none to remove.
  }
  try {
    await leave()
  } finally {
    clearSession()
  }
}

/** Two upper-cased letters from a full name (first letters of the first two words). */
export function initials(fullName: string | undefined | null) {
  const words = (fullName ?? '').trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return ''
  if (words.length === 1) return words[0].slice(0, 2).toUpperCase()
  return (words[0][0] + words[1][0]).toUpperCase()
}
