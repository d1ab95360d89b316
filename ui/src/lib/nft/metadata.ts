/**
 * Metadata verification (marketplace.md sections 4 and 5): the token's metadata JSON, fetched from
 * its URL, must carry the NFT's title as `name`, its description, its file as `image`, and its
 * properties as `attributes` (trait type and value, in order).
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { apiRequest } from '@/lib/api-client'
import type { Nft } from './types'

export type VerificationState = 'unverified' | 'checking' | 'verified' | 'failed'
/** The field that differs: the metadata's name for it. */
export type MetadataField = 'name' | 'description' | 'image' | 'attributes'

type Metadata = { name?: unknown; description?: unknown; image?: unknown; attributes?: unknown }

/**
 * The content address of a file: `ipfs://<cid>[/path]` in metadata and `/ipfs/<cid>[/path]` (or
 * a gateway URL ending so) in the API are the same file. Anything else compares as it is.
 */
export function ipfsPath(url: string): string {
  const value = url.trim()
  if (value.startsWith('ipfs://')) return value.slice('ipfs://'.length).replace(/^ipfs\//, '')
  const at = value.indexOf('/ipfs/')
  if (at >= 0) return value.slice(at + '/ipfs/'.length)
  return value
}

/** Whether a URL names a file on IPFS: `ipfs://<cid>` or any gateway's `/ipfs/<cid>`. */
export function isIpfs(url: string): boolean {
  const value = url.trim()
  return value.startsWith('ipfs://') || ipfsPath(value) !== value
}

/**
 * Where the browser fetches a metadata URL: a file on IPFS through the configured gateway, whatever
 * gateway the URL names (so a minter's host never sees the visitor).
 */
export function fetchableUrl(url: string, gateway = '/ipfs/'): string {
  if (isIpfs(url)) return `${gateway.replace(/\/?$/, '/')}${ipfsPath(url)}`
  return url
}

type Outcome = { state: VerificationState; mismatch: null }

/** How long a re-check waits for the server's read of a token URI, and how often it looks. */
export const SERVER_READ_WAIT_MS = 15_000
export const SERVER_READ_POLL_MS = 1_000

/**
 * The server's word on a token URI it reads, once its read is done (or after
 * `SERVER_READ_WAIT_MS`): read and shown (verified), not read, for now or for good (failed: the
 * metadata state beside the title says why and when it tries again), still being read (checking).
 * `again` asks it to read again first.
 */
async function serverVerification(id: string, again: boolean): Promise<Outcome> {
  const path = `/api/nft/${encodeURIComponent(id)}/metadata`
  const outcome = (status: string | undefined): Outcome => ({
    state: status === 'FETCHED' ? 'verified' : status === 'PENDING' ? 'checking' : 'failed',
    mismatch: null,
  })
  try {
    // A refresh too soon (429) or of a creator's NFT (409) still leaves a state to read.
    if (again) await apiRequest(`${path}/refresh`, { method: 'POST' }).catch(() => undefined)
    const deadline = Date.now() + SERVER_READ_WAIT_MS
    for (;;) {
      const status = (await apiRequest<{ status?: string }>(path)).body?.status
      if (status !== 'PENDING' || Date.now() >= deadline) return outcome(status)
      await new Promise((resolve) => setTimeout(resolve, SERVER_READ_POLL_MS))
    }
  } catch (error) {
    console.error('Metadata state unavailable', error)
    return outcome(undefined)
  }
}

/** Fetches metadata on IPFS through the gateway and compares it with the NFT. */
async function fetchAndCompare(url: string, gateway: string, nft: Nft): Promise<{ state: VerificationState; mismatch: MetadataField | null }> {
  try {
    const response = await fetch(fetchableUrl(url, gateway), { headers: { Accept: 'application/json' } })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    const field = metadataMismatch((await response.json()) as Metadata, nft)
    return field ? { state: 'unverified', mismatch: field } : { state: 'verified', mismatch: null }
  } catch (error) {
    console.error('Metadata verification failed', error)
    return { state: 'failed', mismatch: null }
  }
}

/** The first field of the metadata that differs from the NFT, or null when all match. */
export function metadataMismatch(metadata: Metadata, nft: Pick<Nft, 'title' | 'description' | 'file' | 'properties'>): MetadataField | null {
  if (metadata.name !== nft.title) return 'name'
  if ((metadata.description ?? '') !== (nft.description ?? '')) return 'description'
  if (typeof metadata.image !== 'string' || ipfsPath(metadata.image) !== ipfsPath(nft.file ?? '')) return 'image'
  const attributes = Array.isArray(metadata.attributes) ? (metadata.attributes as { trait_type?: unknown; value?: unknown }[]) : []
  const properties = Array.isArray(nft.properties) ? nft.properties : []
  if (attributes.length !== properties.length) return 'attributes'
  const same = attributes.every((a, i) => String(a?.trait_type ?? '') === String(properties[i].key) && String(a?.value ?? '') === String(properties[i].value))
  return same ? null : 'attributes'
}

/**
 * Checks an NFT's metadata when it loads and again on `verify()`: `checking` while fetching,
 * then `verified`, `unverified` with the differing field, or `failed` when it cannot be fetched.
 * Metadata on IPFS is fetched and compared here; any other token URI is left to the server
 * (the server reads it through its guard: fetched from the page it would tell the minter's
 * host who looks at the NFT and when, and the content security policy refuses it).
 */
export function useMetadataVerification(nft: Nft | undefined, gateway: string) {
  const [state, setState] = useState<VerificationState>('unverified')
  const [mismatch, setMismatch] = useState<MetadataField | null>(null)
  const run = useRef(0)

  const verify = useCallback(async (again = true): Promise<{ state: VerificationState; mismatch: MetadataField | null }> => {
    // The metadata URL the server recorded at creation, else the token URI read from the chain.
    const url = nft?.metadataUrl || nft?.tokenUri
    if (!nft || !url) {
      setState('failed')
      return { state: 'failed', mismatch: null }
    }
    const id = ++run.current
    setState('checking')
    setMismatch(null)
    const result = isIpfs(url) ? await fetchAndCompare(url, gateway, nft) : await serverVerification(nft._id, again)
    if (id === run.current) {
      setState(result.state)
      setMismatch(result.mismatch)
    }
    return result
  }, [nft, gateway])

  const key = nft ? `${nft._id} ${nft.metadataUrl || nft.tokenUri} ${nft.title} ${nft.description} ${nft.file}` : ''
  useEffect(() => {
    if (key) void verify(false)
    // Re-check only when what is compared changes, not on every revalidation of the same NFT.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  return { state, mismatch, verify }
}
