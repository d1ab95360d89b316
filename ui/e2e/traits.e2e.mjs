// End-to-end test of the trait facets and the rarity ranks against the real stack (`marketplace
// dev` serving ui/dist, on its demo data: every NFT has a Background and most a Frame, see
// api/src/demo/plan.rs). Not part of `npm test`:
//
//   E2E_BASE_URL=http://localhost:8080 node --test e2e/traits.e2e.mjs
//
// Drives Debian's /usr/bin/chromium with playwright-core. Signs nobody in: it uses no dev account
// and no dev wallet, so it runs beside the other suites.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { BASE, launchBrowser, openPage } from './support.mjs'

let browser
let page

before(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage()
})

after(async () => {
  await browser?.close()
})

const panel = () => page.getByTestId('facet-panel').first()
const value = (trait, name) => panel().locator(`[data-testid="facet-value"][data-trait="${trait}"][data-value="${name}"]`)

/** The facet values of a trait in the panel, once its counts are the current filters': [{value, count, checked}]. */
async function values(trait) {
  await panel().locator(`[data-testid="facet-value"][data-trait="${trait}"]`).first().waitFor()
  // While new counts load the panel shows the previous ones (aria-busy); it names the filters
  // its counts are for, which must be the URL's.
  await page.waitForFunction(() => {
    const panel = document.querySelector('[data-testid="facet-panel"]')
    const wanted = JSON.stringify(new URL(location.href).searchParams.getAll('trait').sort())
    return panel?.getAttribute('aria-busy') === 'false' && panel.getAttribute('data-counted-for') === wanted
  })
  return panel()
    .locator(`[data-testid="facet-value"][data-trait="${trait}"]`)
    .evaluateAll((els) => els.map((el) => ({ value: el.dataset.value, count: Number(el.dataset.count), checked: el.querySelector('input')?.checked ?? false })))
}

/** The ids of the cards in the grid, once it shows `count` of them. */
async function cardIds(count) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="nft-card"]').length === n, count, { timeout: 20000 })
  return page.getByTestId('nft-card').locator('a[href^="/explore/"]').evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute('href').split('/').pop()))])
}

/** Every fixed-price listing with its properties, from the API (the brute-force reference). */
async function listings() {
  const response = await fetch(`${BASE}/api/nft/explore/?formOfSale=FIXEDPRICE&limit=100`)
  return (await response.json()).body.data.map((nft) => ({ id: nft._id, properties: nft.properties }))
}
const has = (nft, key, wanted) => nft.properties.some((p) => p.key === key && p.value === wanted)

test('explore filtered by two traits shows the cards with both, counts that agree, and keeps them across a reload', async () => {
  await openPage(page, '/explore')
  const all = await listings()
  // Each background's count is how many listings have it.
  const backgrounds = await values('Background')
  for (const b of backgrounds) assert.equal(b.count, all.filter((n) => has(n, 'Background', b.value)).length, b.value)

  // The most common background, then the most common frame among those.
  const background = backgrounds[0].value
  await value('Background', background).click()
  await page.waitForURL((url) => url.searchParams.getAll('trait').includes(`Background:${background}`))
  await page.waitForFunction(
    (b) => document.querySelector(`[data-testid="facet-value"][data-trait="Background"][data-value="${b}"] input`)?.checked,
    background,
  )
  const frames = (await values('Frame')).filter((f) => f.count > 0)
  assert.ok(frames.length > 0, 'a frame among the listings with that background')
  const frame = frames[0]
  // The frame counts now count listings with the chosen background.
  for (const f of frames) assert.equal(f.count, all.filter((n) => has(n, 'Background', background) && has(n, 'Frame', f.value)).length, f.value)
  // The background counts stay as they were (a trait's own choice does not narrow them).
  assert.deepEqual((await values('Background')).map((b) => [b.value, b.count]), backgrounds.map((b) => [b.value, b.count]))

  await value('Frame', frame.value).click()
  await page.waitForURL((url) => url.searchParams.getAll('trait').length === 2)
  const expected = all.filter((n) => has(n, 'Background', background) && has(n, 'Frame', frame.value)).map((n) => n.id).sort()
  assert.equal(expected.length, frame.count, 'the count beside the frame is what the list now holds')
  const shown = (await cardIds(Math.min(expected.length, 9))).sort()
  if (expected.length <= 9) assert.deepEqual(shown, expected, 'every listing with both traits, and no other')
  for (const id of shown) assert.ok(expected.includes(id), `${id} has both traits`)
  // Once chosen, the background counts narrow to those with the frame, the frame's stay.
  const narrowed = await values('Background')
  assert.equal(narrowed.find((b) => b.value === background).count, expected.length)

  // A reload keeps both (the URL holds them), checked, with the same cards.
  const url = page.url()
  await page.reload()
  await page.waitForSelector('[data-testid="startup-loader"]', { state: 'detached', timeout: 20000 })
  assert.equal(page.url(), url)
  assert.ok((await values('Background')).find((b) => b.value === background).checked)
  assert.ok((await values('Frame')).find((f) => f.value === frame.value).checked)
  assert.deepEqual((await cardIds(shown.length)).sort(), shown)

  // Back takes the frame away again.
  await page.goBack()
  await page.waitForURL((u) => u.searchParams.getAll('trait').length === 1)
  assert.equal((await values('Frame')).some((f) => f.checked), false)
})

test('a collection sorted by rarity lists its NFTs rarest first, each with its rank badge', async () => {
  const { body } = await (await fetch(`${BASE}/api/collection/browse?limit=20`)).json()
  // A collection whose page lists a few NFTs.
  const collection = body.data.find((c) => c.nftCount >= 2)
  assert.ok(collection, 'a demo collection with two listed NFTs or more')
  await openPage(page, `/collection/${collection._id}`)
  await page.getByTestId('nft-card').first().waitFor()
  await page.getByLabel('Sort by').selectOption('RARITY')
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="nft-card"] [data-testid="rarity-badge"]').length === n,
    collection.nftCount,
    { timeout: 20000 },
  )
  const ranks = await page.getByTestId('nft-card').locator('[data-testid="rarity-badge"]').evaluateAll((els) => els.map((el) => Number(el.dataset.rank)))
  assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), 'rarest (rank 1) first')
  // The API's order is the same.
  const api = await (await fetch(`${BASE}/api/nft/browsebycollection/${collection._id}?formOfSale=FIXEDPRICE&sortBy=RARITY`)).json()
  assert.deepEqual(api.body.data.map((n) => n.rarity.rank), ranks)
  assert.ok(api.body.data.every((n) => n.rarity.collectionId === collection._id && n.rarity.of >= collection.nftCount))
  // The NFT page shows the rank too.
  await page.getByTestId('nft-card').first().locator('a').first().click()
  await page.getByTestId('rarity-rank').waitFor()
  assert.match(await page.getByTestId('rarity-rank').innerText(), new RegExp(`#${ranks[0]}`))
})
