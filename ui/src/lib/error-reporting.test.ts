import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ERROR_SAMPLE_RATE, MAX_REPORTS_PER_PAGE, reportError, resetErrorReporting } from './error-reporting'

describe('error reporting', () => {
  const fetchMock = vi.fn().mockResolvedValue(new Response('{}'))
  beforeEach(() => {
    resetErrorReporting()
    fetchMock.mockClear()
    vi.stubGlobal('fetch', fetchMock)
  })
  afterEach(() => vi.unstubAllGlobals())

  it('reports every error (sample rate 1) with its message, stack and page', () => {
    expect(ERROR_SAMPLE_RATE).toBe(1)
    reportError(new TypeError('boom'), () => 0.999)
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/api/misc/clienterror')
    const body = JSON.parse(init.body)
    expect(body.message).toBe('TypeError: boom')
    expect(body.stack).toContain('boom')
    expect(body.url).toBe(window.location.pathname)
  })

  it('stops after the per-page bound', () => {
    for (let i = 0; i < MAX_REPORTS_PER_PAGE + 5; i++) reportError(`error ${i}`)
    expect(fetchMock).toHaveBeenCalledTimes(MAX_REPORTS_PER_PAGE)
  })
})
