import { describe, expect, it } from 'vitest'
import { FALLBACK_CONFIG, useConfigStore } from './app-config'
import { IMAGE_SIZES, imageSources, loadingHints, onOwnGateway, preloadImage, RENDITION_WIDTHS } from './image-sources'

const ORIGIN = 'https://market.example'
const CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'

describe('imageSources', () => {
  it('offers every rendition of a file on our gateway, with the sizes it is shown at', () => {
    const sources = imageSources(`/ipfs/${CID}`, IMAGE_SIZES.card, '/ipfs/', ORIGIN)

    expect(sources.src).toBe(`/ipfs/${CID}?w=480`)
    expect(sources.srcSet).toBe(RENDITION_WIDTHS.map((w) => `/ipfs/${CID}?w=${w} ${w}w`).join(', '))
    expect(sources.sizes).toBe(IMAGE_SIZES.card)
  })

  it('takes the fallback width asked for, and absolute URLs on our own origin', () => {
    const sources = imageSources(`${ORIGIN}/ipfs/${CID}`, IMAGE_SIZES.detail, `${ORIGIN}/ipfs/`, ORIGIN, 960)

    expect(sources.src).toBe(`${ORIGIN}/ipfs/${CID}?w=960`)
    expect(sources.srcSet?.split(', ')).toHaveLength(RENDITION_WIDTHS.length)
  })

  it('keeps the plain URL where no rendition can be asked for', () => {
    for (const [url, gateway] of [
      [`https://ipfs.io/ipfs/${CID}`, '/ipfs/'], // another gateway
      [`/ipfs/${CID}`, 'https://ipfs.io/ipfs/'], // ours is configured as an external one
      ['blob:https://market.example/5d2c', '/ipfs/'], // a local preview
      ['data:image/png;base64,iVBORw0KGgo=', '/ipfs/'],
      [`/ipfs/${CID}?w=240`, '/ipfs/'], // already a rendition
      ['/ipfs/', '/ipfs/'], // no CID
      [`/static/${CID}`, '/ipfs/'],
    ]) {
      expect(imageSources(url, IMAGE_SIZES.card, gateway, ORIGIN), url).toEqual({ src: url })
    }
  })

  it('answers an empty source for a missing URL', () => {
    expect(imageSources(undefined, IMAGE_SIZES.card, '/ipfs/', ORIGIN)).toEqual({ src: '' })
    expect(imageSources('', IMAGE_SIZES.card, '/ipfs/', ORIGIN)).toEqual({ src: '' })
  })
})

describe('onOwnGateway', () => {
  it('accepts a gateway given without its trailing slash, and nothing outside it', () => {
    expect(onOwnGateway(`/ipfs/${CID}`, '/ipfs', ORIGIN)).toBe(true)
    expect(onOwnGateway(`/ipfsx/${CID}`, '/ipfs', ORIGIN)).toBe(false)
    expect(onOwnGateway(`/ipfs/${CID}/../../api/x`, '/ipfs/', ORIGIN)).toBe(false)
  })
})

describe('loadingHints', () => {
  it('loads eager images at once and first, the others lazily', () => {
    expect(loadingHints(true)).toEqual({ loading: 'eager', fetchPriority: 'high' })
    expect(loadingHints(false)).toEqual({ loading: 'lazy' })
  })
})

describe('preloadImage', () => {
  it('adds one preload link with the img\'s candidates and sizes, once per image', async () => {
    useConfigStore.getState().setConfig(FALLBACK_CONFIG)
    await preloadImage(`/ipfs/${CID}`, IMAGE_SIZES.card)
    await preloadImage(`/ipfs/${CID}`, IMAGE_SIZES.card)
    await preloadImage('', IMAGE_SIZES.card)
    const links = document.head.querySelectorAll('link[rel="preload"][as="image"]')
    expect(links).toHaveLength(1)
    expect(links[0].getAttribute('href')).toBe(`/ipfs/${CID}?w=480`)
    expect(links[0].getAttribute('imagesrcset')).toBe(RENDITION_WIDTHS.map((w) => `/ipfs/${CID}?w=${w} ${w}w`).join(', '))
    expect(links[0].getAttribute('imagesizes')).toBe(IMAGE_SIZES.card)
    expect(links[0].getAttribute('fetchpriority')).toBe('high')
    links[0].remove()
  })
})
