// End-to-end test of browsing and trading against the real stack (`scripts/run`: API + UI, local
// chain, dev mailbox, dev wallet), with three users in three browser contexts, each linking its own
// dev wallet account (1, 2 and 3 of the local chain's test mnemonic):
//
//   E2E_BASE_URL=http://localhost:8080 node --test e2e/trading.e2e.mjs
//
// A creates a fixed-price NFT and B buys it; A creates an auction, B bids, C outbids (B refunded),
// A accepts C's bid; A stops a sale and burns the unlisted NFT; the detail page, its history, the
// my-bids badges and the browse lists show every step; a like and a bookmark survive a reload.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createNft } from './create-asset.mjs'
import { BASE, devAddress, launchBrowser, nftDetail as detail, nftIdByTitle as nftId, openPage, signUpAndLink as linkUser, snackbar } from './support.mjs'

const TIMEOUT = 90000
const stamp = Date.now().toString(36)
const users = ['a', 'b', 'c'].map((name, i) => ({
  name,
  account: i + 1,
  email: `e2e-trade-${name}-${stamp}@example.com`,
  fullName: `Trader ${name.toUpperCase()}`,
  username: `tr${name}${stamp}`,
  password: 'trade-Passw0rd',
}))
const [A, B, C] = users
const titles = { fixed: `Harbour ${stamp}`, auction: `Auction ${stamp}`, burn: `Burn ${stamp}` }
const ids = {}

let browser

const open = openPage

/** Bids `amount` MATIC on the auction page. */
async function bid(page, id, amount) {
  await open(page, `/auction/${id}`)
  await page.getByTestId('place-bid').click()
  await page.getByTestId('minimum-bid').waitFor()
  await page.getByLabel('Bid amount').fill(amount)
  await page.getByRole('button', { name: 'Submit bid' }).click()
  await snackbar(page, 'Successfully bidded for the token')
}

/** The status badge of my bid of `amount` on the NFT titled `title`, from /mybids. */
async function myBidStatus(page, title, amount) {
  await open(page, '/mybids')
  const card = page.getByTestId('nft-card').filter({ hasText: title.slice(0, 25) })
  await card.first().waitFor({ timeout: TIMEOUT })
  const row = card.getByTestId('my-bid').filter({ hasText: amount })
  return row.first().getByTestId('bid-status').getAttribute('data-status')
}

before(async () => {
  browser = await launchBrowser()
  for (const user of users) await linkUser(browser, user)
})

after(async () => {
  await browser?.close()
})

test('A creates a fixed-price NFT, it is listed on /explore, and B buys it', async () => {
  await createNft(A.page, { base: BASE, title: titles.fixed, properties: [['Color', 'Pink']], sale: { formOfSale: 'FIXEDPRICE', price: '0.5' }, royalties: [[await addressOf(A), '2']], timeoutMs: TIMEOUT })
  ids.fixed = await nftId(titles.fixed)

  await open(B.page, `/explore?search=${encodeURIComponent(titles.fixed)}`)
  await B.page.getByTestId('nft-card').filter({ hasText: titles.fixed }).waitFor()
  await B.page.getByRole('link', { name: titles.fixed }).first().click()
  await B.page.waitForURL(new RegExp(`/explore/${ids.fixed}$`))
  await B.page.getByTestId('verification-icon').and(B.page.locator('[data-state="verified"]')).waitFor({ timeout: TIMEOUT })
  await B.page.getByTestId('buy-now').click()
  await snackbar(B.page, 'Congratulations!!! You are now the owner of this NFT.')

  const nft = await detail(ids.fixed)
  assert.equal(nft.currentOwner.username, B.username)
  assert.equal(nft.formOfSale, 'NOT_FOR_SALE')
  await open(B.page, `/explore/${ids.fixed}`)
  await B.page.getByTestId('owner-message').waitFor()
  await B.page.getByRole('tab', { name: 'History' }).click()
  await B.page.getByTestId('history-row').filter({ hasText: 'Purchased it' }).waitFor()
  await open(C.page, `/explore?search=${encodeURIComponent(titles.fixed)}`)
  await C.page.getByText('No Nfts found').waitFor()
})

test('A auctions an NFT, B bids, C outbids (B refunded), A accepts C', async () => {
  await createNft(A.page, {
    base: BASE,
    title: titles.auction,
    sale: { formOfSale: 'AUCTION', basePrice: '0.1', buyPrice: '10', auctionEnd: new Date(Date.now() + 24 * 3600 * 1000) },
    royalties: [[await addressOf(A), '1']],
    timeoutMs: TIMEOUT,
  })
  ids.auction = await nftId(titles.auction)
  await open(B.page, `/auction?search=${encodeURIComponent(titles.auction)}`)
  await B.page.getByTestId('nft-card').filter({ hasText: titles.auction }).getByTestId('card-countdown').waitFor()

  await bid(B.page, ids.auction, '0.2')
  assert.equal(await myBidStatus(B.page, titles.auction, /(?<![\d.])0\.20*\s*MATIC/), 'BID')
  await bid(C.page, ids.auction, '0.5')
  assert.equal(await myBidStatus(B.page, titles.auction, /(?<![\d.])0\.20*\s*MATIC/), 'REFUNDED')
  assert.equal(await myBidStatus(C.page, titles.auction, /(?<![\d.])0\.50*\s*MATIC/), 'BID')

  await open(A.page, `/auction/${ids.auction}`)
  await A.page.getByTestId('highest-bid').filter({ hasText: /(?<![\d.])0\.50*\s*MATIC/ }).waitFor()
  const top = A.page.getByTestId('bid-row').first()
  await top.getByRole('button', { name: 'Accept' }).click()
  await A.page.getByTestId('confirm-dialog').getByText('Please confirm that you want to accept the bid. After Confirmation you cannot undo the Action.').waitFor()
  await A.page.getByTestId('confirm-dialog').getByRole('button', { name: 'Accept' }).click()
  await snackbar(A.page, 'Bid Accepted!')

  const nft = await detail(ids.auction)
  assert.equal(nft.currentOwner.username, C.username)
  assert.equal(await myBidStatus(C.page, titles.auction, /(?<![\d.])0\.50*\s*MATIC/), 'ALLOTED')
  await open(B.page, `/auction?search=${encodeURIComponent(titles.auction)}`)
  await B.page.getByText('No Nfts found').waitFor()
})

test('A stops a sale, then burns the unlisted NFT', async () => {
  await createNft(A.page, { base: BASE, title: titles.burn, sale: { formOfSale: 'FIXEDPRICE', price: '1' }, royalties: [[await addressOf(A), '1']], timeoutMs: TIMEOUT })
  ids.burn = await nftId(titles.burn)
  await open(A.page, `/explore/${ids.burn}`)
  await A.page.getByRole('button', { name: 'Stop Sale' }).click()
  await A.page.getByTestId('confirm-dialog').getByRole('button', { name: 'Stop Sale' }).click()
  await snackbar(A.page, 'Sale Stopped!')
  assert.equal((await detail(ids.burn)).formOfSale, 'NOT_FOR_SALE')

  await open(A.page, `/explore/${ids.burn}`)
  await A.page.getByRole('button', { name: 'Burn NFT' }).click()
  await A.page.getByTestId('confirm-dialog').getByRole('button', { name: 'Burn NFT' }).click()
  await snackbar(A.page, 'NFT Burned!')
  await A.page.waitForURL(/\/myprofile$/)
  const gone = await fetch(`${BASE}/api/nft/detail/${ids.burn}`)
  assert.equal(gone.status, 404)
})

test('a like and a bookmark survive a reload', async () => {
  await open(C.page, `/explore/${ids.auction}`)
  const like = C.page.getByTestId('like-toggle')
  await like.click()
  await C.page.locator('[data-testid="like-toggle"][aria-pressed="true"]').waitFor()
  await C.page.getByTestId('bookmark-toggle').click()
  await C.page.locator('[data-testid="bookmark-toggle"][aria-pressed="true"]').waitFor()
  await C.page.reload()
  await C.page.waitForSelector('[data-testid="startup-loader"]', { state: 'detached', timeout: 20000 })
  await C.page.locator('[data-testid="like-toggle"][aria-pressed="true"]').waitFor()
  assert.match(await C.page.getByTestId('like-toggle').innerText(), /1 like\b/)
  await C.page.locator('[data-testid="bookmark-toggle"][aria-pressed="true"]').waitFor()
})

/** The dev wallet address a user linked: their account of the local chain's test mnemonic. */
const addressOf = (user) => devAddress(user.account)
