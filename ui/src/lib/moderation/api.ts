import useSWR, { useSWRConfig } from 'swr'
import { apiRequest, getBody } from '@/lib/api-client'

/** What can be reported and decided on. */
export type TargetKind = 'nft' | 'collection' | 'user'
export const REPORT_REASONS = ['SCAM', 'EXPLICIT', 'SPAM', 'STOLEN', 'OTHER'] as const
export type ReportReason = (typeof REPORT_REASONS)[number]
/** The reasons a target of this kind can be reported for (STOLEN: NFTs only). */
export const reasonsFor = (kind: TargetKind): ReportReason[] => REPORT_REASONS.filter((r) => r !== 'STOLEN' || kind === 'nft')
/** The longest report, decision reason or appeal the server accepts. */
export const MODERATION_TEXT_MAX = 1000

export type StaffRole = 'admin' | 'moderator'
export const STAFF_ROLES: StaffRole[] = ['moderator', 'admin']
export type DecisionKind = 'HIDE' | 'RESTORE' | 'DISMISS' | 'VERIFY' | 'UNVERIFY' | 'HOLD' | 'RELEASE' | 'MUTE' | 'UNMUTE'
/** Every kind the record counts per month (holds and releases are the contract's; mutes are counted, never listed: they name a reporter). */
export const DECISION_KINDS: DecisionKind[] = ['HIDE', 'RESTORE', 'DISMISS', 'VERIFY', 'UNVERIFY', 'HOLD', 'RELEASE', 'MUTE', 'UNMUTE']
/**
 * What a moderator (hide, restore, dismiss; mute or unmute a user as a reporter), an admin
 * (verify, unverify) or an owner (appeal) asks.
 */
export type DecisionAction = 'hide' | 'restore' | 'dismiss' | 'verify' | 'unverify' | 'appeal' | 'mute' | 'unmute'
/** How many of a person's reports must have been dismissed before the server lets them be muted. */
export const MUTE_AFTER_DISMISSED = 2

/** A target's standing: public. */
export type Standing = {
  hidden: boolean
  hiddenReason: string | null
  /** ISO 8601. */
  hiddenAt: string | null
  /** The hiding in force was appealed (once per hiding). */
  appealed: boolean
  /** The appeal awaits a decision. */
  appealPending: boolean
  verified: boolean
}

export type Report = {
  reportId: string
  reason: ReportReason
  text: string
  reporterId: string
  reporterUsername: string
  filedAt: string
  /** MUTED: filed by a muted reporter, recorded but never queued. */
  state: 'OPEN' | 'ACTIONED' | 'DISMISSED' | 'MUTED'
  /** How many of the reporter's reports (on any target) were dismissed. */
  reporterDismissed: number
  /** Whether the reporter is muted now. */
  reporterMuted: boolean
}

export type Decision = {
  position: number
  targetKind: TargetKind
  targetId: string
  /** Its title or username; null when unknown or while the target is hidden (the title may be the abuse). */
  targetTitle: string | null
  /** Whether the target is hidden now. */
  targetHidden: boolean
  decision: DecisionKind
  /** The moderator's username. */
  moderator: string
  reason: string
  /** How many reports it decided. */
  reports: number
  at: string
}

export type QueueItem = {
  targetKind: TargetKind
  targetId: string
  title: string | null
  /** `/ipfs/<cid>`. */
  image: string | null
  standing: Standing
  /** The owner's appeal awaiting a decision. */
  appeal: string | null
  waitingSince: string
  openReports: Report[]
  pastReports: Report[]
  decisions: Decision[]
}

export type Queue = { items: QueueItem[]; total: number }
export type StaffMember = { userId: string; username: string; roles: StaffRole[]; since: string }
export type TransparencyMonth = {
  /** `YYYY-MM`. */
  month: string
  reports: Partial<Record<ReportReason, number>>
  decisions: Partial<Record<DecisionKind, number>>
  medianHoursToDecision: number | null
}
export type Transparency = { months: TransparencyMonth[]; decisions: Decision[]; totalDecisions: number }

export { QUEUE_PATH, ROLES_PATH, useMyRoles, useQueueCount } from './roles'
import { QUEUE_PATH, ROLES_PATH } from './roles'
export const STAFF_PATH = '/api/staff'
export const TRANSPARENCY_PATH = '/api/transparency'
export const TRANSPARENCY_CSV = '/api/transparency.csv'
export const TRANSPARENCY_PAGE_SIZE = 20
export const standingPath = (kind: TargetKind, id: string) => `/api/moderation/${kind}/${encodeURIComponent(id)}`

/** Where a target's page is (an NFT's, a collection's, a user's profile). */
export function targetPath(kind: TargetKind, id: string) {
  const encoded = encodeURIComponent(id)
  return kind === 'nft' ? `/nft/${encoded}` : kind === 'collection' ? `/collection/${encoded}` : `/user/${encoded}`
}

/** A target's standing (public); `null` asks nothing. */
export function useStanding(kind: TargetKind, id: string | null | undefined) {
  return useSWR<Standing>(id ? standingPath(kind, id) : null, getBody, { revalidateOnFocus: false })
}

/** The moderators' queue, longest waiting first. */
export function useQueue(enabled: boolean, limit = 50) {
  return useSWR<Queue>(enabled ? `${QUEUE_PATH}?limit=${limit}` : null, getBody, { revalidateOnFocus: true })
}

export function useStaff(enabled: boolean) {
  return useSWR<StaffMember[]>(enabled ? STAFF_PATH : null, getBody)
}

export function useTransparency(page: number) {
  return useSWR<Transparency>(`${TRANSPARENCY_PATH}?page=${page}&limit=${TRANSPARENCY_PAGE_SIZE}`, getBody, { keepPreviousData: true })
}

/** POST /api/report: 409 when the caller's report of it is still open. */
export async function fileReport(kind: TargetKind, id: string, reason: ReportReason, text: string) {
  const { body } = await apiRequest<{ reportId: string }>('/api/report', { method: 'POST', json: { targetKind: kind, targetId: id, reason, text } })
  return body
}

/**
 * Decisions and appeals, each refetching what it changes: the target's standing, the queue (and
 * its count), and the public record.
 */
export function useModerationActions() {
  const { mutate } = useSWRConfig()
  const refresh = (kind: TargetKind, id: string) =>
    mutate(
      (key) =>
        typeof key === 'string' &&
        (key === standingPath(kind, id) || key.startsWith(QUEUE_PATH) || key.startsWith(TRANSPARENCY_PATH) || key.startsWith(`/api/nft/detail/${encodeURIComponent(id)}`)),
    )
  const staffChanged = async (staff: StaffMember[]) => {
    await mutate(STAFF_PATH, staff, { revalidate: false })
    await mutate(ROLES_PATH)
  }
  return {
    decide: async (kind: TargetKind, id: string, action: DecisionAction, text: string) => {
      const { body } = await apiRequest<{ position: number }>(`${standingPath(kind, id)}/${action}`, { method: 'POST', json: { text } })
      await refresh(kind, id)
      return body
    },
    grant: async (username: string, role: StaffRole) => {
      const { body } = await apiRequest<StaffMember[]>(STAFF_PATH, { method: 'POST', json: { username: username.trim(), role } })
      await staffChanged(body)
    },
    revoke: async (userId: string, role: StaffRole) => {
      const { body } = await apiRequest<StaffMember[]>(`${STAFF_PATH}/${encodeURIComponent(userId)}/${role}`, { method: 'DELETE' })
      await staffChanged(body)
    },
  }
}
