/**
 * Stolen-item holds from a moderator's wallet: `holdSale(tokenId, until, evidence)` and
 * `releaseSale(tokenId)` through the trade plumbing (guards, busy overlay, 1 confirmation, the
 * contract's errors in the user's language), then waiting until the read model shows the outcome.
 * The contract decides what is allowed (see Marketplace.sol, "Stolen-item holds"): this module
 * only offers what it accepts.
 */
import { useTranslation } from 'react-i18next'
import useSWR from 'swr'
import { UNTIL_CLOSED, notify } from '@/components/ui/toaster'
import { apiRequest, errorMessage } from '@/lib/api-client'
import { useAppConfig } from '@/lib/app-config'
import { formatDateTime } from '@/lib/format'
import { nftDetailKey } from '@/lib/nft/api'
import { useCountdown } from '@/lib/nft/countdown'
import { ownerAddress } from '@/lib/nft/format'
import { DETAIL_MESSAGE_DURATION, type TradeOutcome, useTrade } from '@/lib/nft/trade'
import type { Nft } from '@/lib/nft/types'
import { loadChain, useConnectionState } from '@/lib/wallet-connection'

const DAY_SECONDS = 86_400
/** The contract's MAX_HOLD: a hold without evidence ends at most 7 days after it began. */
export const HOLD_REVIEW_DAYS = 7
/** The contract's MAX_HOLD_WITH_EVIDENCE: with a note of evidence, at most 90 days from now. */
export const HOLD_EVIDENCE_MAX_DAYS = 90
/** The longest police report reference taken (only its hash goes on chain). */
export const EVIDENCE_MAX_CHARS = 200

/** A hold's end (unix seconds) `days` after the chain's time `chainNow`. */
export function holdEnd(chainNow: number, days: number): bigint {
  return BigInt(chainNow + days * DAY_SECONDS)
}

/** Why the days asked for a hold with evidence are refused (a translation key), or null. */
export function evidenceDaysError(days: string): 'moderation.hold.daysInvalid' | null {
  const value = Number(days)
  return Number.isInteger(value) && value >= 1 && value <= HOLD_EVIDENCE_MAX_DAYS ? null : 'moderation.hold.daysInvalid'
}

/** The hold in force on an NFT as the read model says: its end (null when none) and whether it rests on evidence. */
export function useHoldState(nft: Pick<Nft, 'saleHeldUntil' | 'saleHoldEvidence'> | undefined) {
  // The read model drops a hold once it ends; the countdown also ends it on a page left open.
  const left = useCountdown(nft?.saleHeldUntil)
  const until = left && !left.done ? (nft?.saleHeldUntil ?? null) : null
  return { until, evidence: !!until && !!nft?.saleHoldEvidence }
}

/**
 * Whether the connected wallet is a moderator of the contract: `undefined` while unknown (no
 * wallet, or still reading), else the contract's answer, so a wallet without the role is told
 * before it signs a transaction the contract would refuse.
 */
export function useContractModerator() {
  const { contractAddress } = useAppConfig()
  const { address, status } = useConnectionState()
  const key = status === 'connected' && address && contractAddress ? ['isModerator', contractAddress, address.toLowerCase()] : null
  const { data } = useSWR(
    key,
    async () => {
      const [{ config }, calls] = await Promise.all([loadChain(), import('./hold-calls')])
      return calls.isContractModerator(config, contractAddress, address as `0x${string}`)
    },
    { revalidateOnFocus: false, shouldRetryOnError: false },
  )
  return { address: key ? address : undefined, isModerator: key ? data : undefined }
}

/** Hold and release on one NFT, each resolving once the NFT's page shows the outcome. */
export function useHoldActions(nft: Pick<Nft, '_id' | 'nftTokenId' | 'title' | 'currentOwner'>) {
  const { t, i18n } = useTranslation()
  const trade = useTrade()
  const tokenId = BigInt(nft.nftTokenId)
  const name = nft.title || nft._id
  const detail = () => apiRequest<Nft>(nftDetailKey(nft._id)).then(({ body }) => body)

  /** Holds for `days` from the chain's time; `evidence` (a police report reference) allows up to 90 days. */
  const hold = async (days: number, evidence: string): Promise<TradeOutcome> => {
    if (!trade.guard()) return { ok: false, stage: 'guard' }
    let until: bigint
    let calls: typeof import('./hold-calls')
    try {
      const [{ config }, loaded] = await Promise.all([loadChain(), import('./hold-calls')])
      calls = loaded
      until = holdEnd(await calls.chainTime(config), days)
    } catch (error) {
      console.error('Reading the chain time failed', error)
      notify('error', errorMessage(error, t('common.genericError')), UNTIL_CLOSED)
      return { ok: false, stage: 'chain' }
    }
    const end = formatDateTime(Number(until) * 1000, i18n.resolvedLanguage)
    return trade.run({
      call: { functionName: 'holdSale', args: [tokenId, until, calls.evidenceHash(evidence)] },
      progress: t('moderation.hold.holding'),
      recording: t('trade.almostThere'),
      waitFor: async () => {
        const held = (await detail()).saleHeldUntil
        return !!held && Math.floor(Date.parse(held) / 1000) === Number(until)
      },
      success: t('moderation.hold.held', { name, date: end }),
      failure: t('moderation.hold.notShown'),
      nftId: nft._id,
      duration: DETAIL_MESSAGE_DURATION,
    })
  }

  const release = () =>
    trade.run({
      call: { functionName: 'releaseSale', args: [tokenId] },
      progress: t('moderation.hold.releasing'),
      recording: t('trade.almostThere'),
      waitFor: async () => !(await detail()).saleHeldUntil,
      success: t('moderation.hold.released', { name }),
      failure: t('moderation.hold.notShown'),
      nftId: nft._id,
      duration: DETAIL_MESSAGE_DURATION,
    })

  return { hold, release, guard: trade.guard, owner: ownerAddress(nft) }
}
