import useSWR from 'swr'
import { getBody } from '@/lib/api-client'
import { useSession } from '@/lib/auth'

/** A dev wallet account and who linked it (GET /api/dev/wallets). */
export type DevAccount = {
  index: number
  address: string
  linkedTo: { userId: string; username: string; fullName: string } | null
  /** Linked to the signed-in user. */
  mine: boolean
}

export const DEV_WALLETS_PATH = '/api/dev/wallets'

/**
 * The dev wallet's accounts with their links, asked only when the dev wallet is offered (the
 * server serves the call only on its local dev chain); again when the user changes.
 */
export function useDevAccounts(enabled: boolean) {
  const userId = useSession((s) => s.user?.userId ?? null)
  return useSWR(enabled ? [DEV_WALLETS_PATH, userId] : null, () => getBody<DevAccount[]>(DEV_WALLETS_PATH), { revalidateOnFocus: false })
}
