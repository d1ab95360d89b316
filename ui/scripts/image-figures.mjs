// The image figures of issues 11 and 12: opens each path in headless Chromium on a cold cache (a
// new browser context per visit) against a running server, and prints
//
//   - the time from the end of the startup loader to the first card image visible (an NFT card,
//     the home deck's card or a collection card, loaded and on screen), and to the first nine NFT
//     cards with their images loaded (where the page has nine);
//   - the floor under that time, measured in the same run: the page's own critical requests
//     (the slowest API call it made before asking for that image, then the image itself) fetched
//     bare from the server by Node, one after the other; and the ratio of the figure to it;
//   - the JavaScript and image bytes transferred (compressed, as the browser counted them), the
//     images' ratio to the same images fetched without `?w=` (the full uploads), and how much
//     larger than their boxes (in device pixels) the images are;
//
// each path `RUNS` times (default 3), then the range.
//
//   FIGURES_URL=http://127.0.0.1:8080 node scripts/image-figures.mjs / /explore /collections /myprofile
//
// /myprofile needs a signed-in user: FIGURES_EMAIL and FIGURES_PASSWORD sign one in (a demo
// user), else a new user is signed up through the dev mailbox (its profile is then empty). The
// sign-in happens once, in its own context; each visit starts from its cookies and local storage
// but an empty HTTP cache.
import { chromium } from 'playwright-core'

const base = process.env.FIGURES_URL ?? process.env.E2E_BASE_URL ?? 'http://localhost:8080'
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/explore', '/collections', '/myprofile']
const RUNS = Number(process.env.RUNS ?? 3)
const VIEWPORT = { width: 1400, height: 900 }
const CARDS = 9
const JS_GOAL = 250_000
const GOAL_MS = 1000
const SIGNED_IN = ['/myprofile', '/favourites', '/my-bids']

// Runs in the page from its first script: on every animation frame (just before the browser
// paints), notes when the startup loader last went away, when the first card image is complete
// and on screen, and when the first nine NFT cards all have their images.
function watchImages({ cards }) {
  const marks = { loaderSeen: false, loaderGone: null, firstImage: null, firstImageUrl: null, cards: null }
  window.__imageFigures = marks
  const cardImages = '[data-testid="nft-card"] img, [data-testid="deck-card"] img, [data-testid="collection-card"] img'
  const loaded = (img) => img.complete && img.naturalWidth > 0
  const onScreen = (img) => {
    const box = img.getBoundingClientRect()
    return box.width > 0 && box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth
  }
  const tick = () => {
    const now = performance.now()
    if (document.querySelector('[data-testid="startup-loader"]')) {
      marks.loaderSeen = true
      marks.loaderGone = null
    } else if (marks.loaderSeen && marks.loaderGone === null) {
      marks.loaderGone = now
    }
    if (marks.loaderGone !== null) {
      if (marks.firstImage === null) {
        const first = [...document.querySelectorAll(cardImages)].find((img) => loaded(img) && onScreen(img))
        if (first) {
          marks.firstImage = now
          marks.firstImageUrl = first.currentSrc
        }
      }
      if (marks.cards === null) {
        const images = [...document.querySelectorAll('[data-testid="nft-card"]')].slice(0, cards).map((card) => card.querySelector('img'))
        if (images.length === cards && images.every((img) => img && loaded(img))) marks.cards = now
      }
    }
    if (marks.firstImage === null || marks.cards === null) requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
}

/** Signs in (or up, through the dev mailbox) and answers the context's storage state. */
async function signedInState(browser) {
  const context = await browser.newContext({ viewport: VIEWPORT })
  const page = await context.newPage()
  const open = async (path) => {
    await page.goto(`${base}${path}`)
    await page.waitForSelector('[data-testid="startup-loader"]', { state: 'detached', timeout: 30000 })
  }
  let email = process.env.FIGURES_EMAIL
  const password = process.env.FIGURES_PASSWORD ?? 'figures-Passw0rd'
  if (email) {
    await open('/authentication/sign-in')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  } else {
    const stamp = Date.now().toString(36)
    email = `figures-${stamp}@example.com`
    await open('/authentication/sign-up')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Full name').fill('Figure Runner')
    await page.getByLabel('Username').fill(`fig${stamp}`)
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByLabel('Username').blur()
    await page.getByText('Username is Available').waitFor()
    await page.getByLabel('Confirm password').fill(password)
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.waitForURL(/\/authentication\/email-verification\//)
    await page.getByLabel('Verification Code').fill(await latestCode(email))
    await page.getByRole('button', { name: 'Submit' }).click()
  }
  await page.waitForURL(`${base}/`, { timeout: 30000 })
  const state = await context.storageState()
  await context.close()
  console.log(`signed in as ${email}`)
  return state
}

/** The newest verification code mailed to `email` (the dev mailbox, newest first). */
async function latestCode(email) {
  for (let tries = 0; tries < 50; tries += 1) {
    const response = await fetch(`${base}/api/dev/mailbox?to=${encodeURIComponent(email)}`)
    if (response.ok) {
      const code = (await response.json()).body?.find((mail) => mail.code)?.code
      if (code) return code
    }
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
  throw new Error(`no verification code for ${email} in the dev mailbox`)
}

/** Fetches `url` with `headers`, reading the whole body; answers its milliseconds and bytes. */
async function bare(url, headers = {}) {
  const started = performance.now()
  const response = await fetch(url, { headers: { 'accept-encoding': 'br, gzip', ...headers } })
  const bytes = (await response.arrayBuffer()).byteLength
  return { ms: performance.now() - started, bytes, status: response.status }
}

/** One cold visit of `path`. */
async function visit(browser, path, storageState) {
  const context = await browser.newContext({ viewport: VIEWPORT, storageState })
  await context.addInitScript(watchImages, { cards: CARDS })
  const page = await context.newPage()
  const bytes = {}
  const requests = []
  const sizes = []
  page.on('requestfinished', (request) => {
    sizes.push(
      request.sizes().then(({ responseBodySize, responseHeadersSize }) => {
        const kind = request.resourceType()
        bytes[kind] = (bytes[kind] ?? 0) + responseBodySize + responseHeadersSize
        const timing = request.timing()
        requests.push({ url: request.url(), kind, start: timing.startTime, headers: request.headers(), bodySize: responseBodySize })
      }),
    )
  })
  await page.goto(`${base}${path}`)
  const marks = await page
    .waitForFunction(() => {
      const m = window.__imageFigures
      return m.firstImage !== null && (m.cards !== null || performance.now() - m.firstImage > 3000) ? m : null
    }, null, { timeout: 30000, polling: 100 })
    .then((handle) => handle.jsonValue())
    .catch(async () => page.evaluate(() => window.__imageFigures))
  await page.waitForLoadState('networkidle')
  // How many device pixels each loaded card image has per device pixel of its box.
  const oversize = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="nft-card"] img, [data-testid="deck-card"] img, [data-testid="collection-card"] img')]
      .filter((img) => img.complete && img.naturalWidth > 0 && img.clientWidth > 0)
      .map((img) => img.naturalWidth / (img.clientWidth * devicePixelRatio)),
  )
  await Promise.all(sizes)
  await context.close()

  // The floor: the slowest API call started before the first image's request, then that image,
  // fetched bare (each warm on the server now, as the page found them or made them).
  let floorMs = null
  if (marks.firstImageUrl) {
    const image = requests.find((r) => r.url === marks.firstImageUrl)
    const apis = requests.filter((r) => (r.kind === 'fetch' || r.kind === 'xhr') && new URL(r.url).pathname.startsWith('/api/') && (!image || r.start <= image.start))
    let slowestApi = 0
    for (const api of apis) {
      const { authorization } = api.headers
      slowestApi = Math.max(slowestApi, (await bare(api.url, authorization ? { authorization } : {})).ms)
    }
    floorMs = slowestApi + (await bare(marks.firstImageUrl)).ms
  }
  // The limit for the image bytes: the same images as uploaded (fetched without ?w=).
  const images = requests.filter((r) => r.kind === 'image' && new URL(r.url).pathname.startsWith('/ipfs/'))
  let originalBytes = 0
  for (const url of new Set(images.map((r) => r.url))) {
    const original = new URL(url)
    original.search = ''
    originalBytes += (await bare(original.toString())).bytes
  }
  const sent = images.reduce((sum, r) => sum + r.bodySize, 0)
  return {
    firstImageMs: marks.firstImage !== null && marks.loaderGone !== null ? marks.firstImage - marks.loaderGone : null,
    cardsMs: marks.cards !== null && marks.loaderGone !== null ? marks.cards - marks.loaderGone : null,
    floorMs,
    script: bytes.script ?? 0,
    image: bytes.image ?? 0,
    gatewayImages: sent,
    originalBytes,
    imageCount: new Set(images.map((r) => r.url)).size,
    oversize: oversize.sort((a, b) => a - b)[Math.floor(oversize.length / 2)] ?? null,
  }
}

const kb = (n) => `${(n / 1000).toFixed(1)} KB`
const ms = (n) => (n === null ? 'n/a' : `${Math.round(n)} ms`)
const range = (values, format) => {
  const known = values.filter((v) => v !== null)
  return known.length ? `${format(Math.min(...known))} – ${format(Math.max(...known))}` : 'n/a'
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
try {
  const storageState = paths.some((p) => SIGNED_IN.includes(p.split('?')[0])) ? await signedInState(browser) : undefined
  for (const path of paths) {
    const state = SIGNED_IN.includes(path.split('?')[0]) ? storageState : undefined
    const runs = []
    for (let run = 1; run <= RUNS; run += 1) {
      const r = await visit(browser, path, state)
      runs.push(r)
      console.log(
        `${path} run ${run}: first card image ${ms(r.firstImageMs)} after the startup loader (goal < ${GOAL_MS} ms; ` +
          `floor ${ms(r.floorMs)}: its API call and image fetched bare${r.floorMs && r.firstImageMs !== null ? `, ${(r.firstImageMs / r.floorMs).toFixed(1)}x` : ''}), ` +
          `first ${CARDS} NFT cards' images ${ms(r.cardsMs)}; ` +
          `JavaScript ${kb(r.script)} (${((100 * r.script) / JS_GOAL).toFixed(0)}% of the ${kb(JS_GOAL)} goal), ` +
          `images ${kb(r.image)}: ${r.imageCount} from the gateway ${kb(r.gatewayImages)} = ` +
          `${r.originalBytes ? ((100 * r.gatewayImages) / r.originalBytes).toFixed(1) : 'n/a'}% of the same images as uploaded (${kb(r.originalBytes)}), ` +
          `median ${r.oversize === null ? 'n/a' : r.oversize.toFixed(2)}x their boxes' device pixels`,
      )
    }
    console.log(
      `${path} over ${RUNS} runs: first card image ${range(runs.map((r) => r.firstImageMs), ms)}, ` +
        `nine NFT cards ${range(runs.map((r) => r.cardsMs), ms)}, floor ${range(runs.map((r) => r.floorMs), ms)}, ` +
        `JavaScript ${range(runs.map((r) => r.script), kb)}, images ${range(runs.map((r) => r.image), kb)}`,
    )
  }
} finally {
  await browser.close()
}
