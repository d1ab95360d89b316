// The first visit's weight: opens each path in headless Chromium with an empty cache (a new
// browser context each) against a running server and prints what crossed the wire, as the
// browser counted it (compressed bytes), by kind; and, for pages that show NFTs, the time from
// the end of the startup loader until the first nine card images are visible.
//
//   PAGE_WEIGHT_URL=http://localhost:8080 node scripts/page-weight.mjs / /explore
//
// PAGE_WEIGHT_FILES=1 also lists each script with its bytes, largest first (where to look when
// the goal is missed).
//
// Goal (issue 11): <= 250 KB of JavaScript for / and /explore.
import { chromium } from 'playwright-core'

const base = process.env.PAGE_WEIGHT_URL ?? 'http://localhost:8080'
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/explore']
const CARDS = Number(process.env.PAGE_WEIGHT_CARDS ?? 9)

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
try {
  for (const path of paths) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
    const page = await context.newPage()
    const bytes = {}
    const scripts = []
    const finished = []
    page.on('requestfinished', (request) => {
      finished.push(
        request.sizes().then(({ responseBodySize, responseHeadersSize }) => {
          const kind = request.resourceType()
          bytes[kind] = (bytes[kind] ?? 0) + responseBodySize + responseHeadersSize
          if (kind === 'script') scripts.push([responseBodySize + responseHeadersSize, new URL(request.url()).pathname])
        }),
      )
    })
    await page.goto(`${base}${path}`)
    await page.waitForSelector('[data-testid="startup-loader"]', { state: 'detached', timeout: 30000 })
    const loaderGone = Date.now()
    let cardsMs = null
    try {
      // An NFT card's image counts once it has loaded and is on screen.
      await page.waitForFunction(
        (n) => {
          const images = [...document.querySelectorAll('[data-testid="nft-card"] img')]
          return images.filter((img) => img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().top < innerHeight).length >= n
        },
        Math.min(CARDS, 9),
        { timeout: 10000, polling: 16 },
      )
      cardsMs = Date.now() - loaderGone
    } catch {
      // A page without NFT cards (or fewer than nine): no image figure.
    }
    await page.waitForLoadState('networkidle')
    await Promise.all(finished)
    const kb = (n) => `${((n ?? 0) / 1000).toFixed(1)} KB`
    const total = Object.values(bytes).reduce((a, b) => a + b, 0)
    console.log(
      `${path}: script ${kb(bytes.script)} (goal <= 250 KB), stylesheet ${kb(bytes.stylesheet)}, document ${kb(bytes.document)}, ` +
        `image ${kb(bytes.image)}, fetch ${kb((bytes.fetch ?? 0) + (bytes.xhr ?? 0))}, total ${kb(total)}` +
        (cardsMs === null ? '' : `; first ${Math.min(CARDS, 9)} card images visible ${cardsMs} ms after the startup loader`),
    )
    if (process.env.PAGE_WEIGHT_FILES) {
      for (const [size, file] of scripts.sort((a, b) => b[0] - a[0])) console.log(`  ${kb(size).padStart(9)}  ${file}`)
    }
    await context.close()
  }
} finally {
  await browser.close()
}
