import { getToken } from './auth'
import { navigateTo, tokenExpiryPath } from './navigation'

/** Every server response: the HTTP status equals `statuscode`. */
export type Envelope<T> = { statuscode: number; body: T; message: string }

export class ApiError extends Error {
  readonly statuscode: number
  readonly body: unknown

  constructor(statuscode: number, message: string, body?: unknown) {
    super(message)
    this.name = 'ApiError'
    this.statuscode = statuscode
    this.body = body
  }
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Sent as JSON. */
  json?: unknown
  /** Sent as multipart form data. */
  formData?: FormData
  /** Sent as `application/x-www-form-urlencoded` (the spec's NFT generation call). */
  urlencoded?: URLSearchParams
  /** Query parameters; an array repeats its name once per value (`trait=a:1&trait=b:2`). */
  query?: Record<string, string | number | readonly string[] | undefined>
  signal?: AbortSignal
  /**
   * false for the calls made before there is a session (login, register, verification, Google
   * sign-in, password reset, config): no bearer header, so a stale cookie can never turn their
   * errors into a session expiry.
   */
  auth?: boolean
  /**
   * The call checks a password or a wallet signature (deleting the account): its 401 means a
   * wrong one, shown by the screen, not an expired session (a 410 still is).
   */
  checksCredentials?: boolean
}

/** Statuses that mean the session is gone: the UI logs out and goes to /token-expiry. */
export const SESSION_EXPIRED_STATUSES = [401, 410]

function buildUrl(path: string, query?: RequestOptions['query']) {
  if (!query) return path
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item))
    else if (value !== undefined) params.set(key, String(value))
  }
  const qs = params.toString()
  return qs ? `${path}?${qs}` : path
}

/** The header a write's answer names its log position in, and a read sends back. */
export const LOG_POSITION_HEADER = 'Log-Position'

/**
 * The highest log position this tab's writes were answered with (in memory: per tab). Every GET
 * sends it, so the server answers from tables that include this tab's writes (a read replica
 * behind them is not used).
 */
let lastWritePosition = 0

function rememberLogPosition(response: Response) {
  const position = Number(response.headers?.get(LOG_POSITION_HEADER))
  if (Number.isSafeInteger(position) && position > lastWritePosition) lastWritePosition = position
}

function requestHeaders(token: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  return headers
}

function readHeaders(token: string | undefined): Record<string, string> {
  const headers = requestHeaders(token)
  if (lastWritePosition > 0) headers[LOG_POSITION_HEADER] = String(lastWritePosition)
  return headers
}

/** How long a warmed answer waits for the call it was started for. */
export const WARM_MS = 10_000

/** GETs started ahead of their call ({@link warmGet}), by token and URL. */
const warmed = new Map<string, { response: Promise<Response>; body: Promise<unknown>; at: number }>()
const warmKey = (url: string, token: string | undefined) => `${token ?? ''} ${url}`

/** The warmed answer for this GET, once: the call that takes it is the one it was started for. */
function takeWarmed(url: string, token: string | undefined): Promise<Response> | undefined {
  const key = warmKey(url, token)
  const entry = warmed.get(key)
  warmed.delete(key)
  return entry && Date.now() - entry.at < WARM_MS ? entry.response : undefined
}

/**
 * Starts a GET that a screen about to show will make (the first screen's calls, during the
 * startup loader), so its answer is on the way before the screen asks: the screen's own
 * {@link apiRequest} for the same URL and session, within {@link WARM_MS}, takes this answer
 * instead of fetching again. Resolves with the answer's body for the caller's own use (its
 * first images to preload), or undefined when the call fails: the screen reports failures.
 * A GET already warming (not yet taken) is not started twice.
 */
export function warmGet<T>(path: string, query?: RequestOptions['query']): Promise<T | undefined> {
  const url = buildUrl(path, query)
  const token = getToken()
  const key = warmKey(url, token)
  const now = Date.now()
  for (const [stale, entry] of warmed) if (now - entry.at >= WARM_MS) warmed.delete(stale)
  const warming = warmed.get(key)
  if (warming) return warming.body as Promise<T | undefined>
  const response = fetch(url, { method: 'GET', headers: readHeaders(token), credentials: 'same-origin' })
  // A failure is the screen's to report, if it still asks.
  response.catch(() => undefined)
  // The copy is taken before the screen's call can read the body.
  const body = response
    .then((r) => r.clone())
    .then((r) => (r.ok ? (r.json() as Promise<Partial<Envelope<T>>>) : undefined))
    .then((envelope) => envelope?.body)
    .catch(() => undefined)
  warmed.set(key, { response, body, at: now })
  return body
}

/**
 * Calls the marketplace API: attaches the bearer token from the cookie, unwraps the
 * `{statuscode, body, message}` envelope and throws an ApiError carrying the server message
 * for any non-2xx status. A 401 or 410 on a request that carried a token clears the session
 * and sends the user to /token-expiry with the current path as callback. (A 401 on a request
 * made without a token, such as a failed login, is an ordinary error shown by its screen.)
 * A write's `Log-Position` is remembered, and sent on later GETs (read-your-writes).
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
  const token = options.auth === false ? undefined : getToken()
  const method = options.method ?? (options.formData || options.urlencoded || options.json !== undefined ? 'POST' : 'GET')
  const headers = method === 'GET' ? readHeaders(token) : requestHeaders(token)
  let body: BodyInit | undefined
  if (options.formData) body = options.formData
  else if (options.urlencoded) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8'
    body = options.urlencoded.toString()
  }
  else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(options.json)
  }

  const url = buildUrl(path, options.query)
  const response = await ((method === 'GET' && takeWarmed(url, token)) ||
    fetch(url, { method, headers, body, signal: options.signal, credentials: 'same-origin' }))
  if (method !== 'GET') rememberLogPosition(response)

  let envelope: Envelope<T> | null = null
  try {
    const parsed = (await response.json()) as Partial<Envelope<T>>
    if (parsed && typeof parsed === 'object' && 'statuscode' in parsed) envelope = parsed as Envelope<T>
  } catch {
    envelope = null
  }

  const status = envelope?.statuscode ?? response.status
  const expired = SESSION_EXPIRED_STATUSES.includes(status) && !(options.checksCredentials && status === 401)
  if (token && expired) {
    // /token-expiry clears the session when it shows. Clearing it here, the login guard of the
    // current page would send the user to sign-in before /token-expiry could say why.
    navigateTo(tokenExpiryPath())
  }
  if (!envelope) {
    // Not our envelope (API missing, proxy error page...): no server message to show.
    throw new ApiError(response.status, '')
  }
  if (!response.ok || status < 200 || status >= 300) {
    throw new ApiError(status, envelope.message ?? '', envelope.body)
  }
  return envelope
}

/** The server message of an error, for snackbars and form errors; `fallback` (translated) otherwise. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message
  return fallback
}

/** swr fetcher: the body of a GET. */
export async function getBody<T>(path: string): Promise<T> {
  return (await apiRequest<T>(path)).body
}
