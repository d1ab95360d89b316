// End-to-end walk of the home page on demo data: `marketplace dev` fills a fresh stack with
// `marketplace demo` (people, NFTs in every category, auctions with bids, sales, likes), so a
// newcomer's first page is alive. Waits for the demo to finish, then checks the counters, the
// three sliders (live auctions, trending NFTs, trending sellers show demo items) and that a
// card leads to its detail page. Not part of `npm test`:
//
//   E2E_BASE_URL=http://localhost:8080 node --test e2e/demo.e2e.mjs
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { DEMO_NFTS, DEMO_SALES, api, demoFinished, launchBrowser, openPage } from './support.mjs'

/** The demo's people (api/src/demo/plan.rs). */
const DEMO_USERNAMES = ['ada_lumen', 'kofi_waves', 'mira_frames', 'pixel_olek', 'lucia_sprint', 'ravi_vault', 'noor_grid', 'tomas_tiles']
/** The full demo mints 64 NFTs and sells 8 of them. */

let browser
let page

/** The creator's username of the NFT titled `title`, from the API. */
async function creatorOf(title) {
  const page = await api(`/api/nft/explore/?formOfSale=ALL&search=${encodeURIComponent(title)}`)
  return page.data.find((nft) => nft.title === title)?.creator?.username
}

before(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage()
  // Its likes come last: the most liked NFT has some.
  await demoFinished(async () => (await api('/api/nft/explore/?formOfSale=ALL&sortBy=POPULARITY&limit=1')).data?.[0]?.totalLikes > 0)
})

after(async () => {
  await browser?.close()
})

test('the home page counts the demo market', async () => {
  await openPage(page, '/')
  const values = page.getByTestId('statistics').getByTestId('statistic-value')
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="statistic-value"]')].every((v) => /\d/.test(v.textContent)))
  const numbers = (await values.allInnerTexts()).map((text) => Number(text.replace(/\D/g, '')))
  assert.equal(numbers.length, 3)
  const [minted, sellers, sold] = numbers
  assert.ok(minted >= DEMO_NFTS, `minted ${minted}`)
  assert.ok(sellers >= DEMO_USERNAMES.length, `sellers ${sellers}`)
  assert.ok(sold >= DEMO_SALES, `sold ${sold}`)
})

test('the sliders show live auctions, trending NFTs and trending sellers of the demo', async () => {
  await openPage(page, '/')
  for (const id of ['slider-auctions', 'slider-trending']) {
    const cards = page.getByTestId(id).getByTestId('nft-card')
    await cards.first().waitFor({ timeout: 20000 })
    assert.ok((await cards.count()) >= 3, `${id} shows ${await cards.count()} cards`)
    assert.equal(await page.getByTestId(id).getByTestId('slider-empty').count(), 0)
    const title = await cards.first().getByRole('link').first().getAttribute('aria-label')
    assert.ok(DEMO_USERNAMES.includes(await creatorOf(title)), `${id}: "${title}" is not a demo NFT`)
  }
  // A live auction's card counts down to its end.
  await page.getByTestId('slider-auctions').getByTestId('card-countdown').first().waitFor()
  const sellers = page.getByTestId('slider-sellers').getByTestId('seller-card')
  await sellers.first().waitFor({ timeout: 20000 })
  const names = await sellers.allInnerTexts()
  assert.ok(names.some((text) => DEMO_USERNAMES.some((name) => text.includes(`@${name}`))), `no demo seller among ${names.length} cards`)
})

test('a card of the live auctions leads to its detail page', async () => {
  await openPage(page, '/')
  const card = page.getByTestId('slider-auctions').getByTestId('nft-card').first()
  await card.waitFor({ timeout: 20000 })
  const title = await card.getByRole('link').first().getAttribute('aria-label')
  await card.getByRole('link').first().click()
  await page.waitForURL(/\/(auction|explore)\/\d+-\d+$/)
  await page.getByRole('heading', { name: title }).first().waitFor({ timeout: 20000 })
  const id = page.url().split('/').pop()
  const nft = await api(`/api/nft/detail/${id}`)
  assert.equal(nft.formOfSale, 'AUCTION')
  assert.ok(DEMO_USERNAMES.includes(nft.creator.username))
})
