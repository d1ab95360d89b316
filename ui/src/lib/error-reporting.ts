/**
 * Client error reporting: uncaught errors and unhandled promise rejections go to the server
 * (`POST /api/misc/clienterror`), which logs them beside its own. The spec's trace sample rate
 * is 1: every error is reported, up to a bound per page load so a render loop cannot flood.
 */

/** Share of errors reported (the spec's sample rate). */
export const ERROR_SAMPLE_RATE = 1
/** Most reports one page load sends. */
export const MAX_REPORTS_PER_PAGE = 20

let sent = 0

/** Sends one error report; never throws, never blocks. */
export function reportError(error: unknown, random: () => number = Math.random): void {
  if (sent >= MAX_REPORTS_PER_PAGE || random() >= ERROR_SAMPLE_RATE) return
  sent += 1
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  const stack = error instanceof Error ? error.stack : undefined
  void fetch('/api/misc/clienterror', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      message: message.slice(0, 1000),
      stack: stack?.slice(0, 8000),
      url: window.location.pathname,
      userAgent: navigator.userAgent.slice(0, 300),
    }),
    keepalive: true,
  }).catch(() => undefined)
}

/** Listens for what nothing else caught. */
export function installErrorReporting(): void {
  window.addEventListener('error', (event) => reportError(event.error ?? event.message))
  window.addEventListener('unhandledrejection', (event) => reportError(event.reason))
}

/** For tests: start a fresh page load. */
export function resetErrorReporting(): void {
  sent = 0
}
