/**
 * Metadata verification (marketplace.md sections 4 and 5): the token's metadata JSON, fetched from
 * its URL, must carry the NFT's title as `name`, its description, its file as `image`, and its
 * properties as `attributes` (trait type and value, in order).
 */
import { useCallback, useEffect, useRef, useState } from 'react'
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

/** Where the browser fetches a metadata URL: `ipfs://` through the configured gateway. */
export function fetchableUrl(url: string, gateway = '/ipfs/'): string {
  if (url.startsWith('ipfs://')) return `${gateway.replace(/\/?$/, '/')}${ipfsPath(url)}`
  return url
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
 */
export function useMetadataVerification(nft: Nft | undefined, gateway: string) {
  const [state, setState] = useState<VerificationState>('unverified')
  const [mismatch, setMismatch] = useState<MetadataField | null>(null)
  const run = useRef(0)

  const verify = useCallback(async (): Promise<{ state: VerificationState; mismatch: MetadataField | null }> => {
    // The metadata URL the server recorded at creation, else the token URI read from the chain.
    const url = nft?.metadataUrl || nft?.tokenUri
    if (!nft || !url) {
      setState('failed')
      return { state: 'failed', mismatch: null }
    }
    const id = ++run.current
    setState('checking')
    setMismatch(null)
    let result: { state: VerificationState; mismatch: MetadataField | null }
    try {
      const response = await fetch(fetchableUrl(url, gateway), { headers: { Accept: 'application/json' } })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      const field = metadataMismatch((await response.json()) as Metadata, nft)
      result = field ? { state: 'unverified', mismatch: field } : { state: 'verified', mismatch: null }
    } catch (error) {
      console.error('Metadata verification failed', error)
      result = { state: 'failed', mismatch: null }
    }
    if (id === run.current) {
      setState(result.state)
      setMismatch(result.mismatch)
    }
    return result
  }, [nft, gateway])

  const key = nft ? `${nft._id} ${nft.metadataUrl || nft.tokenUri} ${nft.title} ${nft.description} ${nft.file}` : ''
  useEffect(() => {
    if (key) void verify()
    // Re-check only when what is compared changes, not on every revalidation of the same NFT.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  return { state, mismatch, verify }
}
