/**
 * Lets code outside React (the API client) navigate with the router once it is mounted,
 * and falls back to a full page load before that.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void

let navigator: Navigate | null = null

export function registerNavigator(navigate: Navigate | null) {
  navigator = navigate
}

export function navigateTo(to: string, options?: { replace?: boolean }) {
  if (navigator) navigator(to, options)
  else window.location.assign(to)
}

/** The path the user is on, with its query, used as a callbackURL. */
export function currentPath() {
  return `${window.location.pathname}${window.location.search}`
}

export function tokenExpiryPath(callback: string = currentPath()) {
  return `/token-expiry?callbackURL=${encodeURIComponent(callback)}`
}

export function signInPath(callback?: string, ref?: string) {
  const params = new URLSearchParams()
  if (callback) params.set('callbackURL', callback)
  if (ref) params.set('ref', ref)
  const query = params.toString()
  return `/authentication/sign-in${query ? `?${query}` : ''}`
}
