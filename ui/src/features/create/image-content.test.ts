import { describe, expect, it } from 'vitest'
import { assetImageKind } from './image-content'

const file = (content: BlobPart[], name: string, type: string) => new File(content, name, { type })
const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])

describe('the create page tells an image by its content', () => {
  it('knows PNG and JPEG by their magic bytes, whatever the name says', async () => {
    expect(await assetImageKind(file([PNG_HEAD], 'cat.png', 'image/png'))).toBe('png')
    expect(await assetImageKind(file([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16])], 'photo.png', 'image/png'))).toBe('jpeg')
    expect(await assetImageKind(file([PNG_HEAD], 'no-extension', ''))).toBe('png')
  })

  it('knows an SVG by parsing it', async () => {
    const svg = '<?xml version="1.0"?>\n<!-- art -->\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'
    expect(await assetImageKind(file([svg], 'art.svg', 'image/svg+xml'))).toBe('svg')
  })

  it('refuses a text file named .png, an SVG without its namespace, a broken SVG and other images', async () => {
    expect(await assetImageKind(file(['hello, I am not a picture'], 'fake.png', 'image/png'))).toBeNull()
    expect(await assetImageKind(file(['<svg width="4"></svg>'], 'plain.svg', 'image/svg+xml'))).toBeNull()
    expect(await assetImageKind(file(['<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'], 'broken.svg', 'image/svg+xml'))).toBeNull()
    expect(await assetImageKind(file(['<html><body>hi</body></html>'], 'page.svg', 'image/svg+xml'))).toBeNull()
    expect(await assetImageKind(file(['GIF89a....'], 'anim.gif', 'image/gif'))).toBeNull()
    expect(await assetImageKind(file([], 'empty.png', 'image/png'))).toBeNull()
  })
})
