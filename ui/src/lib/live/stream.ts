/**
 * A client of `GET /api/stream` (server-sent events), over fetch rather than EventSource so that
 * the session's bearer token can be sent: it parses the events, remembers the last event id and,
 * when the connection drops, reconnects by itself (backing off) with `Last-Event-ID`, so the
 * server sends every change missed, in order, once.
 */

/** One NFT that changed (refetch what shows it). */
export type NftChange = { nftId: string; position: number; collections?: string[] }

/** A notice as the stream and /api/notifications carry it. */
export type Notice = {
  position: number
  kind: NoticeKind
  nftId: string
  nftTitle?: string | null
  nftFile?: string | null
  amount: string
  amountWei: string
  /** OUTBID: the bid that topped it (the new top bid), in MATIC and in wei. */
  topAmount?: string | null
  topAmountWei?: string | null
  counterpartAddress?: string | null
  counterpartUserId?: string | null
  counterpartUsername?: string | null
  transactionHash: string
  createdAt: string
  read: boolean
  /** A moderation notice (HIDDEN, RESTORED, REPORT_DECIDED, APPEAL_DECLINED): what it is about. */
  targetKind?: 'nft' | 'collection' | 'user' | null
  targetId?: string | null
  /** The NFT's or collection's title, or the user's name. */
  targetTitle?: string | null
  /** The moderator's reason. */
  reason?: string | null
  /** REPORT_DECIDED: what was decided. */
  decision?: 'HIDE' | 'RESTORE' | 'DISMISS' | null
}

export const NOTICE_KINDS = [
  'OUTBID',
  'BID_RECEIVED',
  'SOLD',
  'BOUGHT',
  'BID_ACCEPTED',
  'BID_REJECTED',
  'AUCTION_ENDING',
  'AUCTION_ENDED',
  'OFFER_RECEIVED',
  'OFFER_ACCEPTED',
  'OFFER_REJECTED',
  'SALE_HELD',
  'SALE_RELEASED',
  'HIDDEN',
  'RESTORED',
  'REPORT_DECIDED',
  'APPEAL_DECLINED',
] as const
export type NoticeKind = (typeof NOTICE_KINDS)[number]

/** What a `change` event carries. */
export type Change = { position: number; nfts: NftChange[]; notices: Notice[] }

/** What the client tells its owner. */
export type StreamEvent = { type: 'ready'; position: number } | { type: 'reset'; position: number } | ({ type: 'change' } & Change)

export type StreamOptions = {
  topics: string[]
  token?: string
  /** Resume after this position (the last id of an earlier connection). */
  lastEventId?: string
  onEvent: (event: StreamEvent) => void
  /** Connected (true) or not (false), each time it changes. */
  onConnected?: (connected: boolean) => void
  fetch?: typeof fetch
  /** A number in [0, 1) (Math.random by default): where each wait falls under its ceiling. */
  random?: () => number
}

/** Ceilings of the reconnection waits: longer with each failed try, up to the last. */
export const RECONNECT_DELAYS_MS = [250, 1000, 2000, 5000]

/**
 * The wait before reconnection try `attempt` (0 = the first after a drop): "full jitter", anywhere
 * between 0 and the ceiling, so the clients a server restart drops do not all come back at once.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]
  return Math.floor(random() * ceiling)
}

/** Parses complete SSE blocks out of `buffer`: the events, and what is left unparsed. */
export function parseEvents(buffer: string): { events: { event: string; id?: string; data: string }[]; rest: string } {
  const events: { event: string; id?: string; data: string }[] = []
  const normalized = buffer.replace(/\r\n?/g, '\n')
  let start = 0
  for (;;) {
    const end = normalized.indexOf('\n\n', start)
    if (end < 0) break
    let event = 'message'
    let id: string | undefined
    const data: string[] = []
    for (const line of normalized.slice(start, end).split('\n')) {
      if (!line || line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'event') event = value
      else if (field === 'id') id = value
      else if (field === 'data') data.push(value)
    }
    if (data.length) events.push({ event, id, data: data.join('\n') })
    start = end + 2
  }
  return { events, rest: normalized.slice(start) }
}

/** Opens the stream and keeps it open until the returned function is called. */
export function openStream(options: StreamOptions): () => void {
  const doFetch = options.fetch ?? fetch.bind(globalThis)
  let lastEventId = options.lastEventId
  let stopped = false
  let controller: AbortController | undefined
  let attempt = 0

  const handle = (raw: { event: string; id?: string; data: string }) => {
    if (raw.id) lastEventId = raw.id
    let data: unknown
    try {
      data = JSON.parse(raw.data)
    } catch {
      return
    }
    const body = data as Partial<Change> & { position?: number }
    if (raw.event === 'ready' || raw.event === 'reset') options.onEvent({ type: raw.event, position: Number(body.position) })
    else if (raw.event === 'change') options.onEvent({ type: 'change', position: Number(body.position), nfts: body.nfts ?? [], notices: body.notices ?? [] })
  }

  const connectOnce = async () => {
    controller = new AbortController()
    const query = new URLSearchParams()
    if (options.topics.length) query.set('topics', options.topics.join(','))
    const headers: Record<string, string> = { Accept: 'text/event-stream' }
    if (options.token) headers.Authorization = `Bearer ${options.token}`
    if (lastEventId) headers['Last-Event-ID'] = lastEventId
    const qs = query.toString()
    const response = await doFetch(`/api/stream${qs ? `?${qs}` : ''}`, { headers, signal: controller.signal, cache: 'no-store' })
    if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`)
    attempt = 0
    options.onConnected?.(true)
    const reader = response.body.getReader()
    const decoder = new TextDecoder()
    let buffer = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      buffer += decoder.decode(value, { stream: true })
      const parsed = parseEvents(buffer)
      buffer = parsed.rest
      parsed.events.forEach(handle)
    }
  }

  const loop = async () => {
    while (!stopped) {
      try {
        await connectOnce()
      } catch {
        // Dropped, refused or aborted: reconnect below unless stopped.
      }
      if (stopped) return
      options.onConnected?.(false)
      const delay = reconnectDelay(attempt, options.random)
      attempt += 1
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }
  void loop()

  return () => {
    stopped = true
    controller?.abort()
  }
}
