import { afterEach, describe, expect, it, vi } from 'vitest'
import { type StreamEvent, openStream, parseEvents } from './stream'

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
    const close = openStream({ topics: [], fetch, onEvent: () => {} })
    await vi.advanceTimersByTimeAsync(250 + 1000 + 2000 + 100)
    expect(calls.length).toBe(4)
    close()
    await vi.advanceTimersByTimeAsync(20_000)
    expect(calls.length).toBe(4)
  })
})
