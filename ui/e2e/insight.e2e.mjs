// End-to-end test of the market insight screens against the real stack (`marketplace dev` serving
// ui/dist, on its demo data): an NFT that sold shows its price history chart, one that never
// traded the empty state; /stats ranks the demo's collections and sorts by a column; a
// collection's page shows its floor and volume, and its card in the grid too. Not part of
// `npm test`:
//
//   E2E_BASE_URL=http://localhost:8080 node --test e2e/insight.e2e.mjs
//
// A visitor only: it signs nobody up and uses no dev wallet account (the other suites keep
// theirs), so it runs beside them on the same stack.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { BASE, launchBrowser, openPage } from './support.mjs'

let browser
let page

const open = (path) => openPage(page, path)
const api = async (path) => (await (await fetch(`${BASE}${path}`)).json()).body

before(async () => {
  browser = await launchBrowser()
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  page = await context.newPage()
})

after(async () => {
  await browser?.close()
})

/** A demo NFT with a sale (from the activity feed), and one with neither sale nor bid. */
async function soldAndQuiet() {
  const sales = await api('/api/activity?kind=SALE&limit=5')
  assert.ok(sales.data.length > 0, 'the demo data has sales')
  const sold = sales.data[0].nftId
  const all = await api('/api/nft/explore/?formOfSale=ALL&limit=100')
  for (const nft of all.data) {
    const history = await api(`/api/nft/pricehistory/${nft._id}`)
    if (history.length === 0) return { sold, quiet: nft._id }
  }
  return { sold, quiet: null }
}

test('an NFT that sold shows its price history chart; one that never traded says so', async () => {
  const { sold, quiet } = await soldAndQuiet()
  const history = await api(`/api/nft/pricehistory/${sold}`)
  assert.ok(history.some((p) => p.kind === 'SALE'), 'its history has the sale')
  await open(`/nft/${sold}`)
  const section = page.getByTestId('price-history')
  await section.getByRole('heading', { name: 'Price history' }).waitFor()
  const chart = section.getByTestId('price-chart')
  await chart.waitFor({ timeout: 20000 })
  // recharts drew the sale as a symbol in an SVG of a real size.
  await chart.locator('svg .recharts-symbols').first().waitFor({ timeout: 20000 })
  const box = await chart.locator('svg').first().boundingBox()
  assert.ok(box && box.width > 300 && box.height > 150, `the chart has room: ${JSON.stringify(box)}`)
  if (quiet) {
    await open(`/nft/${quiet}`)
    await page.getByTestId('price-history-empty').waitFor()
    assert.equal(await page.getByTestId('price-chart').count(), 0)
  }
})

test('/stats ranks the collections and sorts by the column clicked, both ways', async () => {
  await open('/')
  // Reached from the top bar.
  await page.getByRole('navigation').getByRole('link', { name: 'Stats' }).first().click()
  await page.waitForURL(/\/stats$/)
  await page.getByRole('heading', { name: 'Collection stats' }).waitFor()
  const rows = page.getByTestId('stats-row')
  await rows.first().waitFor()
  const expected = (await api('/api/stats/collections?limit=100')).totalItems
  assert.equal(await rows.count(), expected, 'every collection is on the first page')

  const owners = async () => (await page.getByTestId('stats-items').allInnerTexts()).map((t) => Number(t.replace(/\D/g, '')))
  await page.getByTestId('sort-ITEMS').click()
  await page.waitForURL(/sort=ITEMS&order=desc/)
  await page.waitForFunction(() => document.querySelector('[data-testid="sort-ITEMS"]')?.closest('th')?.getAttribute('aria-sort') === 'descending')
  await page.waitForTimeout(300)
  const down = await owners()
  assert.deepEqual(down, [...down].sort((a, b) => b - a), `items highest first: ${down}`)
  await page.getByTestId('sort-ITEMS').click()
  await page.waitForURL(/sort=ITEMS&order=asc/)
  await page.waitForTimeout(300)
  const up = await owners()
  assert.deepEqual(up, [...up].sort((a, b) => a - b), `items lowest first: ${up}`)

  // By volume over all time: the collections with sales first.
  await page.getByTestId('period-ALL').click()
  await page.getByTestId('sort-VOLUME').click()
  await page.waitForURL(/period=ALL&sort=VOLUME&order=desc/)
  const ranked = await api('/api/stats/collections?period=ALL&sortBy=VOLUME&orderBy=0')
  await page.waitForFunction((title) => document.querySelector('[data-testid="stats-title"]')?.textContent === title, ranked.data[0].title)
})

test('a collection page shows its floor, volume and chart; its card shows floor and volume', async () => {
  const ranked = await api('/api/stats/collections?period=ALL&sortBy=VOLUME&orderBy=0')
  const top = ranked.data[0]
  assert.notEqual(top.volume, '0', 'a demo collection has volume (its members sold before)')
  await open(`/collection/${top.collectionId}`)
  const stats = page.getByTestId('collection-stats')
  await stats.waitFor()
  const floor = await stats.getByTestId('stat-floor').innerText()
  assert.match(floor, top.floorPrice === null ? /—/ : /MATIC/)
  const volume = await stats.getByTestId('stat-volume').innerText()
  assert.match(volume, new RegExp(`${top.volume.replace('.', '[.,]')}.*MATIC`))
  await stats.getByTestId('collection-chart').locator('svg .recharts-bar-rectangle').first().waitFor({ timeout: 20000 })

  await open('/collections')
  const card = page.getByTestId('collection-card').filter({ hasText: top.title })
  await card.first().waitFor()
  assert.match(await card.first().getByTestId('collection-volume').innerText(), /MATIC/)
  assert.match(await card.first().getByTestId('collection-floor').innerText(), top.floorPrice === null ? /—/ : /MATIC/)
})
