/**
 * Images told by their content, as the server tells them (api/src/files/mod.rs `image_type`): a
 * file's name and type say nothing, so a text file named `.png` is caught when it is picked.
 */
export type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp' | 'svg'

/** What each picker takes: what the server accepts there. */
export const ASSET_IMAGE_KINDS: readonly ImageKind[] = ['png', 'jpeg', 'svg']
export const PROFILE_IMAGE_KINDS: readonly ImageKind[] = ['png', 'jpeg', 'gif', 'webp', 'svg']
export const COLLECTION_IMAGE_KINDS: readonly ImageKind[] = ['png', 'jpeg', 'webp']

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG = [0xff, 0xd8, 0xff]
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))
const SVG_NS = 'http://www.w3.org/2000/svg'

const startsWith = (bytes: Uint8Array, magic: number[], at = 0) => magic.every((b, i) => bytes[at + i] === b)

/** A well-formed XML document whose root is an SVG element. */
function isSvg(text: string): boolean {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml')
  const root = doc.documentElement
  return !!root && root.localName === 'svg' && root.namespaceURI === SVG_NS && doc.getElementsByTagName('parsererror').length === 0
}

/**
 * What `file` is by its content: PNG, JPEG, GIF or WebP by their magic bytes, SVG by parsing it;
 * null for anything else (a text file named `.png` too), before it is previewed or uploaded.
 */
export async function imageKind(file: Blob): Promise<ImageKind | null> {
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer())
  if (startsWith(head, PNG)) return 'png'
  if (startsWith(head, JPEG)) return 'jpeg'
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'gif'
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'webp'
  // Markup starts with '<' (after a byte-order mark and blanks): anything else is not read whole.
  const start = (await file.slice(0, 1024).text()).replace(/^\uFEFF/, '').trimStart()
  if (!start.startsWith('<')) return null
  return isSvg(await file.text()) ? 'svg' : null
}

/** Whether `file`'s content is one of `kinds` (false when it cannot be read). */
export async function isImageOf(file: Blob, kinds: readonly ImageKind[]): Promise<boolean> {
  const kind = await imageKind(file).catch(() => null)
  return kind !== null && kinds.includes(kind)
}
