import useSWR from 'swr'
import { apiRequest, ApiError, getBody, SESSION_EXPIRED_STATUSES } from '@/lib/api-client'
import { getToken, useSession } from '@/lib/auth'
import { navigateTo, tokenExpiryPath } from '@/lib/navigation'

export const DELETION_PATH = '/api/account/deletion'
export const DELETE_PATH = '/api/account/delete'
export const EXPORT_PATH = '/api/account/export'
export const EXPORT_EMAIL_PATH = '/api/account/export/email'

/** The name the downloaded data is saved under. */
export const EXPORT_FILENAME = 'marketplace-data.json'

/** Something the person still has open on chain under a wallet: only that wallet can cancel it. */
export type OpenOnChain = {
  kind: 'LISTING' | 'AUCTION' | 'BID' | 'OFFER'
  /** `{chainId}-{tokenId}`. */
  nftId: string
  /** '' for a token minted elsewhere without one. */
  title: string
}

/** What deleting the account needs to know first. */
export type DeletionInfo = {
  authProvider: 'EMAIL' | 'GOOGLE'
  /** Whether the account has a password (else it confirms with a linked wallet's signature). */
  hasPassword: boolean
  /** The linked wallet addresses. */
  wallets: string[]
  openOnChain: OpenOnChain[]
}

/** The proof of a deletion: the password, or a SIWE message signed by a linked wallet. */
export type DeletionProof = { password: string } | { wallet: { address: string; message: string; signature: string } }

/** GET /api/account/deletion (bearer), read each time the dialog opens. */
export function useDeletionInfo(open: boolean) {
  const token = useSession((s) => s.token)
  return useSWR<DeletionInfo>(open && token ? DELETION_PATH : null, getBody, { revalidateOnFocus: false, revalidateOnMount: true })
}

/**
 * POST /api/account/delete (bearer): 'Account deleted'. A wrong password or signature is a 401
 * the dialog shows, not an expired session.
 */
export async function deleteAccount(proof: DeletionProof) {
  return apiRequest<null>(DELETE_PATH, { method: 'POST', json: proof, checksCredentials: true })
}

/** POST /api/account/export/email (bearer): 202, a link to the data is mailed. */
export async function emailExport() {
  return apiRequest<null>(EXPORT_EMAIL_PATH, { method: 'POST' })
}

/**
 * GET /api/account/export (bearer): the person's data as one JSON document, saved by the browser
 * as {@link EXPORT_FILENAME}. Errors (429 when asked too often) carry the envelope's message.
 */
export async function downloadExport() {
  const token = getToken()
  const response = await fetch(EXPORT_PATH, {
    headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    credentials: 'same-origin',
  })
  if (!response.ok) {
    const envelope = (await response.json().catch(() => null)) as { message?: string } | null
    if (token && SESSION_EXPIRED_STATUSES.includes(response.status)) navigateTo(tokenExpiryPath())
    throw new ApiError(response.status, envelope?.message ?? '')
  }
  const blob = await response.blob()
  const url = URL.createObjectURL(blob.type ? blob : new Blob([blob], { type: 'application/json' }))
  try {
    const link = document.createElement('a')
    link.href = url
    link.download = EXPORT_FILENAME
    link.rel = 'noopener'
    document.body.appendChild(link)
    link.click()
    link.remove()
  } finally {
    // The click has handed the file to the browser; a moment later the URL may go.
    window.setTimeout(() => URL.revokeObjectURL(url), 1000)
  }
}
