import { configured, useAppConfig } from './app-config'

/** The widths our gateway scales stored images to (`GET /ipfs/{cid}?w=`; api/src/files/renditions.rs). */
export const RENDITION_WIDTHS = [64, 240, 480, 960, 1920] as const

/** What an `<img>` needs to load the smallest rendition that fills its box. */
export type ImageSources = { src: string; srcSet?: string; sizes?: string }

/**
 * How wide the images are shown, as the `sizes` attribute reads it (CSS widths by viewport).
 * The page container is at most 80rem wide, minus its padding (2rem a side from md).
 */
export const IMAGE_SIZES = {
  /** A card in a grid or slider: one column, two from sm, three from md (sliders) or lg (grids). */
  card: '(min-width: 80em) 400px, (min-width: 48em) 33vw, (min-width: 30em) 50vw, 100vw',
  /** A trending seller's cover strip: the width of a card. */
  sellerCover: '(min-width: 80em) 400px, (min-width: 48em) 33vw, (min-width: 30em) 50vw, 100vw',
  /** A profile cover: the page's width. */
  cover: '(min-width: 80em) 1216px, 100vw',
  /** The NFT detail's artwork: half the page from lg, else the page's width. */
  detail: '(min-width: 80em) 600px, (min-width: 64em) 50vw, 100vw',
  /** An avatar: at most 8rem (the profile header's). */
  avatar: '128px',
} as const

/**
 * `src`, `srcSet` and `sizes` for the image at `url` shown `sizes` wide: the gateway's renditions
 * when `url` is a file on our own gateway (`gateway`, from /api/config), the browser picking the
 * smallest one that fills the box at the screen's pixel density; `src` alone (the URL as it is)
 * for anything else — an external gateway cannot scale, and `blob:` / `data:` previews are local.
 * `fallbackWidth` is the rendition browsers without `srcset` get.
 */
export function imageSources(url: string | null | undefined, sizes: string, gateway: string, origin = window.location.origin, fallbackWidth = 480): ImageSources {
  if (!url) return { src: '' }
  if (!onOwnGateway(url, gateway, origin)) return { src: url }
  const at = (width: number) => `${url}?w=${width}`
  return {
    src: at(fallbackWidth),
    srcSet: RENDITION_WIDTHS.map((width) => `${at(width)} ${width}w`).join(', '),
    sizes,
  }
}

/** Whether `url` names a file (`<gateway><cid>`, no query) on `gateway`, itself served by this origin. */
export function onOwnGateway(url: string, gateway: string, origin: string) {
  try {
    const base = new URL(gateway || '/ipfs/', origin)
    const file = new URL(url, origin)
    if (base.origin !== origin || file.origin !== origin) return false
    const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`
    const cid = file.pathname.slice(prefix.length)
    return file.pathname.startsWith(prefix) && /^[a-z0-9]+$/i.test(cid) && !file.search && !file.hash
  } catch {
    return false
  }
}

/** {@link imageSources} on the loaded configuration's gateway. */
export function useImageSources(url: string | null | undefined, sizes: string, fallbackWidth?: number): ImageSources {
  const { ipfsGateway } = useAppConfig()
  return imageSources(url, sizes, ipfsGateway, window.location.origin, fallbackWidth)
}

/** How many images of a grid or slider load eagerly: its first row, what a first visit sees first. */
export const EAGER_IMAGES = 3

/**
 * Loading hints: an `eager` image is above the fold on arrival (what the visitor waits for), so it
 * loads at once and before the others; the rest load as they scroll near.
 */
export function loadingHints(eager: boolean): { loading: 'eager' | 'lazy'; fetchPriority?: 'high' } {
  return eager ? { loading: 'eager', fetchPriority: 'high' } : { loading: 'lazy' }
}

/**
 * Starts loading the image at `url` shown `sizes` wide before its `<img>` exists (the first
 * screen's top image, during the startup loader): a preload link with the same candidates and
 * `sizes` as the `<img>` will have, so the browser picks the same rendition and the `<img>` finds
 * it loaded.
 */
export async function preloadImage(url: string | null | undefined, sizes: string, fallbackWidth?: number) {
  const { ipfsGateway } = await configured()
  const image = imageSources(url, sizes, ipfsGateway, window.location.origin, fallbackWidth)
  if (!image.src || [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')].some((l) => l.getAttribute('href') === image.src)) return
  const link = document.createElement('link')
  const attributes = { rel: 'preload', as: 'image', href: image.src, imagesrcset: image.srcSet, imagesizes: image.sizes, fetchpriority: 'high' }
  for (const [name, value] of Object.entries(attributes)) if (value) link.setAttribute(name, value)
  document.head.append(link)
}
