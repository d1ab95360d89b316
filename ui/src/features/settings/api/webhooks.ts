import useSWR, { useSWRConfig } from 'swr'
import { apiRequest, getBody } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import type { NoticeKind } from '@/lib/live/stream'

export const WEBHOOKS_PATH = '/api/webhooks'

/** The server's limits (domain::accounts): URL length, topics per endpoint, endpoints per person. */
export const WEBHOOK_URL_MAX = 2048
export const WEBHOOK_TOPICS_MAX = 20
export const WEBHOOKS_MAX = 10

/** A stream topic as the server accepts it: `market`, `nft:{nftId}` or `collection:{collectionId}`. */
export const TOPIC_PATTERN = /^(market|(nft|collection):[A-Za-z0-9_-]{1,200})$/

export type EndpointState = 'ACTIVE' | 'RETRYING' | 'DISABLED'

/** One attempt of the delivery log. */
export type DeliveryAttempt = {
  /** The change's log position (0 for a test event). */
  position: number
  messageId: string
  /** 1 for the first attempt of this change. */
  attempt: number
  /** The receiver's HTTP status, or null when it did not answer. */
  status: number | null
  /** Why it did not answer, or null. */
  error: string | null
  latencyMs: number
  /** ISO 8601. */
  at: string
  /** The receiver acknowledged it (2xx). */
  ok: boolean
}

/** An endpoint as its owner sees it: never its secret. */
export type WebhookEndpoint = {
  endpointId: string
  url: string
  topics: string[]
  noticeKinds: NoticeKind[]
  state: EndpointState
  /** Every change up to this position was delivered (or was not for this endpoint). */
  acknowledgedPosition: number
  /** Failed attempts since the last success. */
  failures: number
  nextAttemptAt: string | null
  disabledAt: string | null
  lastDelivery: DeliveryAttempt | null
  createdAt: string
}

/** The answer of a registration: the only time the secret is shown. */
export type CreatedEndpoint = WebhookEndpoint & { secret: string }

export type EndpointInput = { url: string; topics: string[]; noticeKinds: NoticeKind[] }

const endpointPath = (id: string) => `${WEBHOOKS_PATH}/${encodeURIComponent(id)}`
export const deliveriesPath = (id: string) => `${endpointPath(id)}/deliveries`

/** GET /api/webhooks: the caller's endpoints, oldest first. Refreshed every 10 s (deliveries move). */
export function useWebhooks() {
  const token = useSession((s) => s.token)
  return useSWR<WebhookEndpoint[]>(token ? WEBHOOKS_PATH : null, getBody, { revalidateOnFocus: true, refreshInterval: 10000 })
}

/** GET /api/webhooks/{id}/deliveries: the last attempts, newest first (while `id` is given). */
export function useWebhookDeliveries(id: string | null) {
  const token = useSession((s) => s.token)
  return useSWR<DeliveryAttempt[]>(token && id ? deliveriesPath(id) : null, getBody, { refreshInterval: 3000 })
}

/** Registration, change, deletion, test and redelivery; each refetches what it moves. */
export function useWebhookActions() {
  const { mutate } = useSWRConfig()
  const refresh = async (id?: string) => {
    await mutate(WEBHOOKS_PATH)
    if (id) await mutate(deliveriesPath(id))
  }
  return {
    create: async (input: EndpointInput) => {
      const { body } = await apiRequest<CreatedEndpoint>(WEBHOOKS_PATH, { method: 'POST', json: input })
      await refresh()
      return body
    },
    update: async (id: string, input: EndpointInput) => {
      const { body } = await apiRequest<WebhookEndpoint>(endpointPath(id), { method: 'PUT', json: input })
      await refresh()
      return body
    },
    remove: async (id: string) => {
      await apiRequest<null>(endpointPath(id), { method: 'DELETE' })
      await refresh()
    },
    sendTest: async (id: string) => {
      const { body } = await apiRequest<DeliveryAttempt>(`${endpointPath(id)}/test`, { method: 'POST' })
      await refresh(id)
      return body
    },
    redeliver: async (id: string, fromPosition: number) => {
      const { body } = await apiRequest<WebhookEndpoint>(`${endpointPath(id)}/redeliver`, { method: 'POST', json: { fromPosition } })
      await refresh(id)
      return body
    },
  }
}

/** The topics typed in a free field: split on commas, spaces and new lines, without repeats. */
export function parseTopics(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((t) => t.trim()).filter(Boolean))]
}
