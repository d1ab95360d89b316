import useSWR from 'swr'
import { getBody } from '@/lib/api-client'
import { useSession } from '@/lib/auth'

// The staff's roles and the queue's count, apart from the rest of the moderation calls: what the
// avatar menu and the drawer ask (from their own lazy chunks, not the shell's).

export const ROLES_PATH = '/api/moderation/roles'
export const QUEUE_PATH = '/api/moderation/queue'

type Roles = { roles: ('admin' | 'moderator')[] }

/** The signed-in person's staff roles (none for most people, and for visitors). */
export function useMyRoles() {
  const token = useSession((s) => s.token)
  const { data, error, isLoading } = useSWR<Roles>(token ? ROLES_PATH : null, getBody, { revalidateOnFocus: false })
  const roles = data?.roles ?? []
  return {
    roles,
    isModerator: roles.includes('moderator') || roles.includes('admin'),
    isAdmin: roles.includes('admin'),
    /** Still asking (signed in): the guard waits instead of saying "not allowed". */
    loading: !!token && isLoading,
    error,
  }
}

/** How many targets await a decision (the avatar menu's count): one item asked, `total` read. */
export function useQueueCount(enabled: boolean) {
  const { data } = useSWR<{ total: number }>(enabled ? `${QUEUE_PATH}?limit=1` : null, getBody, { revalidateOnFocus: true })
  return data?.total
}

