import useSWR, { useSWRConfig } from 'swr'
import { apiRequest, getBody } from '@/lib/api-client'
import { useSession } from '@/lib/auth'

export const API_KEYS_PATH = '/api/account/keys'

/** What a key may do (any key reads public data). */
export const API_KEY_SCOPES = ['read', 'trades', 'notifications', 'webhooks'] as const
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number]

/** The longest name the server accepts. */
export const API_KEY_NAME_MAX = 64

/** A key as lists show it: never the key itself. */
export type ApiKey = {
  keyId: string
  name: string
  scopes: ApiKeyScope[]
  /** `mk_live_` and four characters. */
  prefix: string
  /** ISO 8601. */
  createdAt: string
  /** ISO 8601, to the minute; null if never used. */
  lastUsedAt: string | null
}

/** The answer of a creation: the only time the key is shown. */
export type CreatedApiKey = ApiKey & { key: string }

/** GET /api/account/keys: the caller's working keys, newest first. */
export function useApiKeys() {
  const token = useSession((s) => s.token)
  return useSWR<ApiKey[]>(token ? API_KEYS_PATH : null, getBody, { revalidateOnFocus: true })
}

/** POST /api/account/keys and DELETE /api/account/keys/{keyId}; each refetches the list. */
export function useApiKeyActions() {
  const { mutate } = useSWRConfig()
  return {
    create: async (name: string, scopes: ApiKeyScope[]) => {
      const { body } = await apiRequest<CreatedApiKey>(API_KEYS_PATH, { method: 'POST', json: { name, scopes } })
      await mutate(API_KEYS_PATH)
      return body
    },
    revoke: async (keyId: string) => {
      await apiRequest<null>(`${API_KEYS_PATH}/${encodeURIComponent(keyId)}`, { method: 'DELETE' })
      await mutate(API_KEYS_PATH)
    },
  }
}
