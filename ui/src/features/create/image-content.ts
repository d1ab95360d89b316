/** The image types the create page takes, told by content: a file's name and type say nothing. */
export type AssetImageKind = 'png' | 'jpeg' | 'svg'

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG = [0xff, 0xd8, 0xff]
const SVG_NS = 'http://www.w3.org/2000/svg'

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b)

/** A well-formed XML document whose root is an SVG element. */
function isSvg(text: string): boolean {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml')
  const root = doc.documentElement
  return !!root && root.localName === 'svg' && root.namespaceURI === SVG_NS && doc.getElementsByTagName('parsererror').length === 0
}

/**
 * What `file` is by its content: PNG or JPEG by their magic bytes, SVG by parsing it; null for
 * anything else (a text file named `.png` too), before it is previewed or uploaded.
 */
export async function assetImageKind(file: Blob): Promise<AssetImageKind | null> {
  const head = new Uint8Array(await file.slice(0, PNG.length).arrayBuffer())
  if (startsWith(head, PNG)) return 'png'
  if (startsWith(head, JPEG)) return 'jpeg'
  // Markup starts with '<' (after a byte-order mark and blanks): anything else is not read whole.
  const start = (await file.slice(0, 1024).text()).replace(/^\uFEFF/, '').trimStart()
  if (!start.startsWith('<')) return null
  return isSvg(await file.text()) ? 'svg' : null
}
