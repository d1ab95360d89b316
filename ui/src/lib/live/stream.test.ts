import { afterEach, describe, expect, it, vi } from 'vitest'
import { RECONNECT_DELAYS_MS, type StreamEvent, openStream, parseEvents, reconnectDelay } from './stream'

describe('parseEvents', () => {
  it('reads complete events, skips comments, keeps the unfinished rest', () => {
    const text = ': heartbeat\n\nevent: ready\nid: 7\ndata: {"position":7}\n\nevent: change\r\nid: 9\r\ndata: {"position":9,\r\ndata: "nfts":[]}\r\n\r\nevent: cha'
    const { events, rest } = parseEvents(text)
    expect(events).toEqual([
      { event: 'ready', id: '7', data: '{"position":7}' },
      { event: 'change', id: '9', data: '{"position":9,\n"nfts":[]}' },
    ])
    expect(rest).toBe('event: cha')
  })
})

/** A fetch whose answers are streams of the given chunks, one answer per call, then failures. */
function fakeFetch(answers: string[][]) {
  const calls: { url: string; headers: Record<string, string> }[] = []
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, headers: init.headers as Record<string, string> })
    const chunks = answers.shift()
    if (!chunks) throw new TypeError('network down')
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
        controller.close()
      },
    })
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } })
  })
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls }
}

describe('openStream', () => {
  afterEach(() => vi.useRealTimers())

  it('passes events on and, when the connection drops, resumes after the last id with the token', async () => {
    vi.useFakeTimers()
    const change = '{"position":12,"nfts":[{"nftId":"80001-1","position":12}],"notices":[]}'
    const { fetch, calls } = fakeFetch([
      ['event: ready\nid: 10\ndata: {"position":10}\n\n', `event: change\nid: 12\ndata: ${change.slice(0, 20)}`, `${change.slice(20)}\n\n`],
      ['event: change\nid: 15\ndata: {"position":15,"nfts":[],"notices":[{"kind":"OUTBID","position":15}]}\n\n'],
    ])
    const events: StreamEvent[] = []
    const connected: boolean[] = []
    const close = openStream({ topics: ['market', 'nft:80001-1'], token: 'tok', fetch, onEvent: (e) => events.push(e), onConnected: (c) => connected.push(c) })
    await vi.advanceTimersByTimeAsync(2000)
    close()

    expect(calls[0].url).toBe('/api/stream?topics=market%2Cnft%3A80001-1')
    expect(calls[0].headers.Authorization).toBe('Bearer tok')
    expect(calls[0].headers['Last-Event-ID']).toBeUndefined()
    expect(calls[1].headers['Last-Event-ID']).toBe('12')
    expect(events.map((e) => [e.type, e.position])).toEqual([
      ['ready', 10],
      ['change', 12],
      ['change', 15],
    ])
    expect(events[1]).toMatchObject({ nfts: [{ nftId: '80001-1' }] })
    expect(events[2]).toMatchObject({ notices: [{ kind: 'OUTBID' }] })
    expect(connected.slice(0, 3)).toEqual([true, false, true])
  })

  it('keeps trying while the server is unreachable, backing off, and stops when closed', async () => {
    vi.useFakeTimers()
    const { fetch, calls } = fakeFetch([])
    // The longest waits (random at its top): 250, 1000, 2000 ms.
    const close = openStream({ topics: [], fetch, random: () => 0.9999, onEvent: () => {} })
    await vi.advanceTimersByTimeAsync(250 + 1000 + 2000 - 10)
    expect(calls.length).toBe(3)
    await vi.advanceTimersByTimeAsync(100)
    expect(calls.length).toBe(4)
    close()
    await vi.advanceTimersByTimeAsync(20_000)
    expect(calls.length).toBe(4)
  })
})

describe('reconnection backoff', () => {
  afterEach(() => vi.useRealTimers())

  it('waits a random part of each ceiling (full jitter), the ceiling growing to 5 s', () => {
    expect(RECONNECT_DELAYS_MS).toEqual([250, 1000, 2000, 5000])
    expect([0, 1, 2, 3, 9].map((attempt) => reconnectDelay(attempt, () => 0.5))).toEqual([125, 500, 1000, 2500, 2500])
    expect(reconnectDelay(3, () => 0)).toBe(0)
    expect(reconnectDelay(3, () => 0.9999)).toBeLessThan(5000)
    // Math.random by default: spread over the whole range, not one schedule for everyone.
    const waits = Array.from({ length: 200 }, () => reconnectDelay(3))
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...waits)).toBeLessThan(5000)
    expect(new Set(waits).size).toBeGreaterThan(50)
    expect(waits.some((w) => w < 1000) && waits.some((w) => w > 4000)).toBe(true)
  })

  it('spreads the clients a restart drops: each reconnects after its own wait', async () => {
    vi.useFakeTimers()
    const early = fakeFetch([])
    const late = fakeFetch([])
    const closeEarly = openStream({ topics: [], fetch: early.fetch, random: () => 0.1, onEvent: () => {} })
    const closeLate = openStream({ topics: [], fetch: late.fetch, random: () => 0.9, onEvent: () => {} })
    // Both tried at once; then one retries after 25 and 100 ms more, the other after 225 ms.
    await vi.advanceTimersByTimeAsync(30)
    expect([early.calls.length, late.calls.length]).toEqual([2, 1])
    await vi.advanceTimersByTimeAsync(100)
    expect([early.calls.length, late.calls.length]).toEqual([3, 1])
    await vi.advanceTimersByTimeAsync(100)
    expect([early.calls.length, late.calls.length]).toEqual([3, 2])
    closeEarly()
    closeLate()
  })
})
