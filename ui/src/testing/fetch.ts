import { vi } from 'vitest'

/** A fetch Response carrying the server's envelope. */
export function jsonResponse(statuscode: number, body: unknown, message = '') {
  return new Response(JSON.stringify({ statuscode, body, message }), {
    status: statuscode,
    headers: { 'Content-Type': 'application/json' },
  })
}

type Route = { method?: string; path: string | RegExp; status?: number; body?: unknown; message?: string }

/**
 * Stubs the global fetch with a small route table; unmatched calls answer 404.
 * Returns the mock so tests can assert the exact calls (paths, methods, payloads).
 */
export function stubApi(routes: Route[]) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input.toString()
    const method = init?.method ?? 'GET'
    const route = routes.find(
      (r) => (r.method ?? 'GET') === method && (typeof r.path === 'string' ? url === r.path || url.startsWith(`${r.path}?`) : r.path.test(url)),
    )
    if (!route) return jsonResponse(404, null, 'Not found')
    return jsonResponse(route.status ?? 200, route.body ?? null, route.message ?? '')
  })
  vi.stubGlobal('fetch', mock)
  return mock
}

/** The JSON payload of the n-th call to a fetch mock. */
export function callBody(mock: ReturnType<typeof vi.fn>, index: number) {
  const init = mock.mock.calls[index][1] as RequestInit
  return typeof init.body === 'string' ? JSON.parse(init.body) : init.body
}
