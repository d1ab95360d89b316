/**
 * Chain transactions of the marketplace (buy, bid, accept / reject, stop sale, burn, and the
 * create and update screens' mint and toggle-for-sale): the spec's guards in order, the busy
 * overlay, the wallet transaction, 1 confirmation, the server's record call, the spec's
 * messages, and the swr revalidation. One place, so every screen behaves the same.
 *
 * Usage: `const trade = useTrade()`; `trade.guard({ ownerAddress })` alone for buttons that open
 * a form first; `trade.run({...})` for the whole flow.
 */
import { useTranslation } from 'react-i18next'
import { useSWRConfig } from 'swr'
import type { Hash, TransactionReceipt } from 'viem'
import { UNTIL_CLOSED, notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useAppConfig } from '@/lib/app-config'
import { useSession } from '@/lib/auth'
import { useBusyStore } from '@/lib/busy-store'
import { APP_CHAIN_ID } from '@/lib/chains'
import { currentPath, navigateTo, signInPath } from '@/lib/navigation'
import { loadChain, useConnectionState } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { rememberOwnTransaction } from './own-transactions'
import { revalidateNft } from './api'
import type { ContractCall } from './chain-calls'

/**
 * A trade's success message leaves after 6 s; its errors stay until closed. (The spec kept every
 * snackbar of the detail page 600000 ms: they piled up and the newest did not show.)
 */
export const DETAIL_MESSAGE_DURATION = 6000
/** How long (and how often) accept / reject polls the detail for the indexer's outcome. */
export const OUTCOME_POLL_MS = 1000
export const OUTCOME_POLL_LIMIT_MS = 60000

/** The contract's sale types (`Marketplace.SaleType`). */
export const SALE_TYPE = { NotForSale: 0, FixedPrice: 1, Auction: 2 } as const

/** Why a guard stopped an action. */
export type GuardResult = 'ok' | 'signIn' | 'wallet' | 'network' | 'wrongWallet'

/** The state a guard reads: the signed-in user, the wallet, and the owner when it is an owner action. */
export type GuardInput = {
  email: string | null | undefined
  linkedAddresses: string[]
  walletConnected: boolean
  address: string | null | undefined
  chainId: number | undefined
  ownerAddress?: string | null
}

/**
 * The spec's guards in their order (marketplace.md section 5): signed in with an e-mail; a
 * connected wallet linked to the account; chain 80001; for owner actions, the owner's wallet.
 */
export function checkGuards(input: GuardInput): GuardResult {
  if (!input.email) return 'signIn'
  const address = input.address?.toLowerCase()
  if (!input.walletConnected || !address || !input.linkedAddresses.some((a) => a.toLowerCase() === address)) return 'wallet'
  if (input.chainId !== APP_CHAIN_ID) return 'network'
  if (input.ownerAddress !== undefined && (input.ownerAddress ?? '').toLowerCase() !== address) return 'wrongWallet'
  return 'ok'
}

export type TradeRun = {
  /** The owner's address, for owner-only actions (stop sale, burn, update, accept / reject). */
  ownerAddress?: string | null
  /** The transaction. */
  call: ContractCall
  /** Overlay text while the wallet signs and the chain confirms (already translated). */
  progress: string
  /** Overlay text once confirmed, while the server records it ('Almose there!'). */
  recording?: string
  /** The server's record call, with the confirmed transaction. */
  record?: (hash: Hash, receipt: TransactionReceipt) => Promise<unknown>
  /** Without a record call: resolves once the read side shows the outcome (polled). */
  waitFor?: () => Promise<boolean>
  /** The success message; a function gets what the record call resolved to (the cart names what it bought, and may warn of what it skipped). */
  success: string | ((recorded: unknown) => string | { kind: 'success' | 'warning'; text: string })
  /** Shown when the record call (or the outcome wait) fails. */
  failure: string
  /** Show the server's message instead of `failure` when it has one ('Buying failed!' or the error's message). */
  preferServerMessage?: boolean
  /** The NFT whose cached reads to revalidate afterwards. */
  nftId?: string
  duration?: number
}

export type TradeOutcome = { ok: true; hash: Hash; receipt: TransactionReceipt; recorded?: unknown } | { ok: false; stage: 'guard' | 'chain' | 'record' }

async function poll(check: () => Promise<boolean>) {
  const until = Date.now() + OUTCOME_POLL_LIMIT_MS
  while (Date.now() < until) {
    if (await check().catch(() => false)) return true
    await new Promise((r) => setTimeout(r, OUTCOME_POLL_MS))
  }
  return false
}

/** The trade plumbing bound to the current session, wallet and configuration. */
export function useTrade() {
  const { t, i18n } = useTranslation()
  const { contractAddress } = useAppConfig()
  const { address, chainId, status } = useConnectionState()
  const user = useSession((s) => s.user)
  const walletType = useWalletStore((s) => s.walletType)
  const openDialog = useWalletStore((s) => s.openDialog)
  const { mutate } = useSWRConfig()

  /** Runs the guards; on failure does what the spec says (sign-in, wallet dialog, error) and returns false. */
  const guard = ({ ownerAddress }: { ownerAddress?: string | null } = {}): boolean => {
    const result = checkGuards({
      email: user?.email,
      linkedAddresses: (user?.connectedWallet ?? []).map((w) => w.walletAddress),
      walletConnected: status === 'connected' && !!walletType,
      address,
      chainId,
      ownerAddress,
    })
    if (result === 'signIn') navigateTo(signInPath(currentPath()))
    else if (result === 'wallet') openDialog(ownerAddress ?? undefined)
    else if (result === 'network') notify('error', t('wallet.differentNetwork'))
    // The checksum (keccak) loads here, not with every first visit.
    else if (result === 'wrongWallet') void import('@/lib/address').then(({ checksummed }) => notify('error', t('wallet.differentWallet', { address: checksummed(ownerAddress ?? '') })))
    return result === 'ok'
  }

  const run = async (action: TradeRun): Promise<TradeOutcome> => {
    if (!guard({ ownerAddress: action.ownerAddress })) return { ok: false, stage: 'guard' }
    const busy = useBusyStore.getState()
    const duration = action.duration
    busy.show(action.progress)
    let hash: Hash
    let receipt: TransactionReceipt
    // The wallet libraries come with the first transaction (a connected wallet has loaded them already).
    let chainCalls: typeof import('./chain-calls') | undefined
    try {
      const [{ config }, calls] = await Promise.all([loadChain(), import('./chain-calls')])
      chainCalls = calls
      ;({ hash, receipt } = await calls.sendContractCall(config, { contractAddress, call: action.call, account: address, onSent: rememberOwnTransaction }))
      if (receipt.status !== 'success') throw new Error(t('trade.txReverted'))
    } catch (error) {
      console.error(`${action.call.functionName} failed on chain`, error)
      busy.hide()
      const message = chainCalls ? chainCalls.chainErrorMessage(error, t, i18n.resolvedLanguage) : { text: errorMessage(error, t('common.genericError')) }
      notify('error', message.text, { duration: UNTIL_CLOSED, detail: message.detail })
      return { ok: false, stage: 'chain' }
    }
    let recorded: unknown
    try {
      if (action.recording) busy.show(action.recording)
      if (action.record) recorded = await action.record(hash, receipt)
      if (action.waitFor && !(await poll(action.waitFor))) throw new Error('outcome not shown in time')
    } catch (error) {
      console.error(`Recording ${action.call.functionName} failed`, error)
      busy.hide()
      notify('error', action.preferServerMessage ? errorMessage(error, action.failure) : action.failure, UNTIL_CLOSED)
      if (action.nftId) void revalidateNft(mutate, action.nftId)
      return { ok: false, stage: 'record' }
    }
    busy.hide()
    const success = typeof action.success === 'function' ? action.success(recorded) : action.success
    if (typeof success === 'string') notify('success', success, duration)
    else notify(success.kind, success.text, duration)
    if (action.nftId) await revalidateNft(mutate, action.nftId)
    return { ok: true, hash, receipt, recorded }
  }

  return { guard, run, address, contractAddress }
}
