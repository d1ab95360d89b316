import useSWR, { useSWRConfig } from 'swr'
import { apiRequest, getBody } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import type { Notice, NoticeKind } from '@/lib/live/stream'
import type { Paged } from '@/lib/nft/types'

export const NOTIFICATIONS_PATH = '/api/notifications'
export const UNREAD_KEY = '/api/notifications/unread'
export const NOTICE_SETTINGS_KEY = '/api/notifications/settings'
/** The notifications page loads 20 at a time. */
export const NOTIFICATIONS_PAGE_SIZE = 20

export type NoticeSettings = { muted: NoticeKind[]; email: NoticeKind[] }

/** GET /api/notifications?page&limit: one page of the caller's notices, newest first. */
export async function fetchNotices(path: string, query: Record<string, string | number | undefined>): Promise<Paged<Notice>> {
  return (await apiRequest<Paged<Notice>>(path, { query })).body
}

/** The caller's unread count (none signed out); every tab refetches it when a notice arrives. */
export function useUnreadCount() {
  const token = useSession((s) => s.token)
  return useSWR<{ unread: number }>(token ? UNREAD_KEY : null, getBody, { revalidateOnFocus: true })
}

/** The caller's settings. */
export function useNoticeSettings() {
  const token = useSession((s) => s.token)
  return useSWR<NoticeSettings>(token ? NOTICE_SETTINGS_KEY : null, getBody, { revalidateOnFocus: false })
}

/** Marking read and changing settings: each answers the new unread count, kept in the cache. */
export function useNoticeActions() {
  const { mutate } = useSWRConfig()
  const unreadAfter = async (call: Promise<{ body: { unread: number } }>) => {
    const { body } = await call
    await mutate(UNREAD_KEY, body, { revalidate: false })
    return body.unread
  }
  return {
    readOne: (position: number) => unreadAfter(apiRequest(`${NOTIFICATIONS_PATH}/read`, { method: 'POST', json: { position } })),
    readAll: (upTo: number) => unreadAfter(apiRequest(`${NOTIFICATIONS_PATH}/readall`, { method: 'POST', json: { upTo } })),
    saveSettings: async (settings: NoticeSettings) => {
      const unread = await unreadAfter(apiRequest(NOTICE_SETTINGS_KEY, { method: 'PUT', json: settings }))
      await mutate(NOTICE_SETTINGS_KEY, settings, { revalidate: false })
      return unread
    },
  }
}
