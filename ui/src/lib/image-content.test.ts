import { describe, expect, it } from 'vitest'
import { ASSET_IMAGE_KINDS, COLLECTION_IMAGE_KINDS, PROFILE_IMAGE_KINDS, imageKind, isImageOf } from './image-content'

const file = (content: BlobPart[], name: string, type: string) => new File(content, name, { type })
const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
const JPEG_HEAD = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16])
const SVG = '<?xml version="1.0"?>\n<!-- art -->\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'

describe('images told by their content', () => {
  it('knows PNG, JPEG, GIF and WebP by their magic bytes, whatever the name says', async () => {
    expect(await imageKind(file([PNG_HEAD], 'cat.png', 'image/png'))).toBe('png')
    expect(await imageKind(file([JPEG_HEAD], 'photo.png', 'image/png'))).toBe('jpeg')
    expect(await imageKind(file([PNG_HEAD], 'no-extension', ''))).toBe('png')
    expect(await imageKind(file(['GIF89a\x01\x00\x01\x00'], 'anim.txt', 'text/plain'))).toBe('gif')
    expect(await imageKind(file(['GIF87a\x01\x00\x01\x00'], 'old.gif', 'image/gif'))).toBe('gif')
    expect(await imageKind(file(['RIFF\x24\x00\x00\x00WEBPVP8 '], 'pic.webp', 'image/webp'))).toBe('webp')
  })

  it('knows an SVG by parsing it', async () => {
    expect(await imageKind(file([SVG], 'art.svg', 'image/svg+xml'))).toBe('svg')
    expect(await imageKind(file(['\uFEFF' + SVG], 'bom.svg', 'image/svg+xml'))).toBe('svg')
  })

  it('refuses a text file named .png, an SVG without its namespace, a broken SVG, a RIFF that is not WebP', async () => {
    expect(await imageKind(file(['hello, I am not a picture'], 'fake.png', 'image/png'))).toBeNull()
    expect(await imageKind(file(['<svg width="4"></svg>'], 'plain.svg', 'image/svg+xml'))).toBeNull()
    expect(await imageKind(file(['<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'], 'broken.svg', 'image/svg+xml'))).toBeNull()
    expect(await imageKind(file(['<html><body>hi</body></html>'], 'page.svg', 'image/svg+xml'))).toBeNull()
    expect(await imageKind(file(['RIFF\x24\x00\x00\x00WAVEfmt '], 'sound.webp', 'image/webp'))).toBeNull()
    expect(await imageKind(file([], 'empty.png', 'image/png'))).toBeNull()
  })

  it('each picker takes what the server takes there', async () => {
    const gif = file(['GIF89a\x01\x00\x01\x00'], 'anim.gif', 'image/gif')
    const svg = file([SVG], 'art.svg', 'image/svg+xml')
    const text = file(['just text'], 'notes.png', 'image/png')
    // The NFT image: PNG, JPEG, SVG.
    expect(await isImageOf(file([PNG_HEAD], 'a.png', ''), ASSET_IMAGE_KINDS)).toBe(true)
    expect(await isImageOf(svg, ASSET_IMAGE_KINDS)).toBe(true)
    expect(await isImageOf(gif, ASSET_IMAGE_KINDS)).toBe(false)
    // Avatar and cover: PNG, JPEG, GIF, WebP, SVG.
    expect(await isImageOf(gif, PROFILE_IMAGE_KINDS)).toBe(true)
    expect(await isImageOf(svg, PROFILE_IMAGE_KINDS)).toBe(true)
    // A collection: PNG, JPEG, WebP.
    expect(await isImageOf(file([JPEG_HEAD], 'x.webp', 'image/webp'), COLLECTION_IMAGE_KINDS)).toBe(true)
    expect(await isImageOf(svg, COLLECTION_IMAGE_KINDS)).toBe(false)
    for (const kinds of [ASSET_IMAGE_KINDS, PROFILE_IMAGE_KINDS, COLLECTION_IMAGE_KINDS]) expect(await isImageOf(text, kinds)).toBe(false)
  })
})
