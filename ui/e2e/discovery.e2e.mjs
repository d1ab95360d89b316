// End-to-end test of the discovery and social screens against the real stack (`scripts/run`, or
// `marketplace dev` serving ui/dist): the home page and its sliders, a collection created and
// filled with an NFT made through /create-asset, liked, the profile tabs, trending sellers and
// creators, and favourites. Not part of `npm test`:
//
//   E2E_BASE_URL=http://localhost:8080 node --test e2e/discovery.e2e.mjs
//
// Drives Debian's /usr/bin/chromium with playwright-core; signs up a fresh user through the dev
// mailbox and links the dev wallet, as accounts.e2e.mjs does.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createNft, TINY_PNG } from './create-asset.mjs'
import { BASE, chooseDevWallet, launchBrowser, openPage, signUp } from './support.mjs'

const stamp = Date.now().toString(36)
const user = { email: `disc-${stamp}@example.com`, fullName: 'Disco Very', username: `disc${stamp}`, password: 'first-Passw0rd' }
const nftTitle = `Disco piece ${stamp}`
const collectionTitle = `Disco set ${stamp}`
// Anvil's second standard account: a royalty receiver that is not the minter.
const ROYALTY_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

let browser
let page
let userId

const open = (path) => openPage(page, path)

/** The card of a collection in the grid on the page. */
const collectionCard = (title) => page.getByTestId('collection-card').filter({ hasText: title })
const nftCard = (title) => page.getByTestId('nft-card').filter({ hasText: title })

before(async () => {
  browser = await launchBrowser()
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  // Dev wallet account 5: the other suites link 0 (accounts), 1-3 (trading), 4 (create) and 6-8 (offers), and a
  // wallet links to one user only.
  await context.addInitScript(() => localStorage.setItem('devWallet.accountIndex', '5'))
  page = await context.newPage()
})

after(async () => {
  await browser?.close()
})

test('a visitor sees the home sliders and is sent to sign-in by Create', async () => {
  await open('/')
  for (const heading of ['Live Auctions', 'Trending NFTs', 'Trending Sellers']) {
    await page.getByRole('heading', { name: heading }).waitFor()
  }
  // Each slider ends loading: cards, or its empty message.
  for (const id of ['slider-auctions', 'slider-trending', 'slider-sellers']) {
    const slider = page.getByTestId(id)
    await slider.locator('[data-testid="nft-card"], [data-testid="seller-card"], [data-testid="slider-empty"]').first().waitFor({ timeout: 20000 })
  }
  assert.equal(await page.getByTestId('slider-auctions').getByRole('link', { name: /View all/ }).getAttribute('href'), '/auction?type=all')
  assert.equal(await page.getByTestId('slider-trending').getByRole('link', { name: /View all/ }).getAttribute('href'), '/explore?type=all')
  assert.equal(await page.getByTestId('slider-sellers').getByRole('link', { name: /View all/ }).getAttribute('href'), '/trending-sellers')
  await page.getByTestId('landing-create').click()
  await page.waitForURL(/\/authentication\/sign-in\?callbackURL=%2Fcreate-asset/)
})

test('sign up, link the dev wallet, and Create on the home page opens /create-asset', async () => {
  await signUp(page, user)
  await page.waitForURL(`${BASE}/`)
  userId = await page.evaluate(() => JSON.parse(localStorage.getItem('userProfile') ?? '{}').userId)
  assert.ok(userId, 'the profile is stored after sign-in')

  // Signed in without a wallet: Create opens the wallet dialog.
  await page.getByTestId('landing-create').click()
  await chooseDevWallet(page)
  await page.getByTestId('wallet-menu').waitFor()
  // Signed in with a wallet: Create goes to /create-asset.
  await page.getByTestId('landing-create').click()
  await page.waitForURL(/\/create-asset$/)
})

test("a new user's profile tabs and favourites are empty, with zero totals", async () => {
  await open('/myprofile?tab=created')
  await page.getByText('No NFTs found').waitFor({ timeout: 20000 })
  for (const tab of ['created', 'owned', 'inAuction', 'inSale']) assert.equal(await page.getByTestId(`total-${tab}`).innerText(), '0')
  await page.getByTestId('tab-owned').click()
  await page.getByPlaceholder('Search owned NFTs').waitFor()
  await page.getByText('No NFTs found').waitFor()
  await open('/favourites?type=nft-bookmark')
  await page.getByText('no data').waitFor({ timeout: 20000 })
  await page.getByRole('tab', { name: /Auctions/ }).click()
  await page.waitForURL(/type=auction-bookmark/)
  await page.getByText('no data').waitFor()
})

test('create a collection: the image first, then the title, then it shows on the profile', async () => {
  await open('/myprofile')
  await page.getByText('No collections yet').waitFor()
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  const dialog = page.getByTestId('collection-dialog')
  await dialog.getByRole('heading', { name: 'Create Collection' }).waitFor()
  await dialog.getByRole('button', { name: 'Create', exact: true }).click()
  await dialog.getByText('Image is required').waitFor()
  await dialog.getByTestId('collection-image-input').setInputFiles({ name: 'set.png', mimeType: 'image/png', buffer: TINY_PNG })
  await dialog.getByRole('button', { name: 'Create', exact: true }).click()
  await dialog.getByText('Title is required').waitFor()
  await dialog.getByPlaceholder('My collection').fill(collectionTitle)
  await dialog.getByRole('button', { name: 'Create', exact: true }).click()
  await page.getByText('Collection Created!').waitFor()
  await dialog.waitFor({ state: 'detached' })
  await collectionCard(collectionTitle).waitFor()
  assert.equal(await page.getByTestId('total-collections').innerText(), '1')
})

test('mint a fixed-price NFT and add it to the collection from its card', async () => {
  await createNft(page, { base: BASE, title: nftTitle, sale: { formOfSale: 'FIXEDPRICE', price: '0.5' }, royalties: [[ROYALTY_ADDRESS, '5']], timeoutMs: 90000 })
  await open('/myprofile?tab=created')
  const card = nftCard(nftTitle)
  await card.waitFor({ timeout: 20000 })
  await card.getByTestId('card-menu').click()
  await page.getByRole('menuitem', { name: 'Add to collection' }).click()
  const dialog = page.getByTestId('add-to-collection-dialog')
  await dialog.getByRole('button', { name: new RegExp(collectionTitle) }).click()
  await page.locator('[data-testid="snackbar"][data-type="success"]').first().waitFor()
  await dialog.waitFor({ state: 'detached' })

  // The collection detail lists it (its fixed-price NFTs).
  await open('/myprofile?tab=collections')
  await collectionCard(collectionTitle).getByRole('link', { name: collectionTitle }).first().click()
  await page.waitForURL(/\/myprofile\/collection\//)
  await page.getByTestId('collection-chip').getByText(collectionTitle).waitFor()
  await nftCard(nftTitle).waitFor({ timeout: 20000 })
  // The labelled Back button returns to the page before.
  await page.getByTestId('collection-back').click()
  await page.waitForURL(/\/myprofile\?tab=collections$/)
})

test('like the collection on /collections: the count moves once the server accepted it', async () => {
  await open('/collections')
  const card = collectionCard(collectionTitle)
  await card.waitFor({ timeout: 20000 })
  assert.equal(await card.getByTestId('collection-likes').innerText(), '0')
  await card.getByTestId('collection-like').click()
  await page.waitForFunction(
    (title) => [...document.querySelectorAll('[data-testid="collection-card"]')].find((c) => c.textContent.includes(title))?.querySelector('[data-testid="collection-likes"]')?.textContent === '1',
    collectionTitle,
  )
  assert.equal(await card.getByTestId('collection-like').getAttribute('aria-pressed'), 'true')
  // A reload shows the like from the server, not from the page's memory.
  await open('/collections')
  assert.equal(await collectionCard(collectionTitle).getByTestId('collection-likes').innerText(), '1')
  assert.equal(await collectionCard(collectionTitle).getByTestId('collection-creator').getAttribute('href'), '/myprofile')
})

test("the profile's tabs: totals, the NFT where it belongs, filters that reload", async () => {
  await open('/myprofile?tab=owned')
  await nftCard(nftTitle).waitFor({ timeout: 20000 })
  assert.equal(await page.getByTestId('total-created').innerText(), '1')
  assert.equal(await page.getByTestId('total-owned').innerText(), '1')
  assert.equal(await page.getByTestId('total-inSale').innerText(), '1')
  assert.equal(await page.getByTestId('total-inAuction').innerText(), '0')

  await page.getByTestId('tab-inSale').click()
  await nftCard(nftTitle).waitFor()
  await page.getByTestId('tab-inAuction').click()
  await page.getByText('No NFTs found').waitFor()

  await page.getByTestId('tab-created').click()
  await nftCard(nftTitle).waitFor()
  await page.getByLabel('Sale type').selectOption('AUCTION')
  await page.getByText('No NFTs found').waitFor()
  await page.getByLabel('Sale type').selectOption('FIXEDPRICE')
  await nftCard(nftTitle).waitFor()
  await page.getByPlaceholder('Search created NFTs').fill('no such title at all')
  await page.getByText('No NFTs found').waitFor()

  // Another visitor's view of the same user: the public calls, no Create button.
  const visitor = await browser.newPage()
  await visitor.goto(`${BASE}/user/${userId}?tab=created`)
  await visitor.getByTestId('nft-card').filter({ hasText: nftTitle }).waitFor({ timeout: 20000 })
  await visitor.getByTestId('tab-collections').click()
  await visitor.getByTestId('collection-card').filter({ hasText: collectionTitle }).waitFor()
  assert.equal(await visitor.getByRole('button', { name: 'Create', exact: true }).count(), 0)
  assert.equal(await visitor.getByTestId('collection-menu').count(), 0)
  await visitor.close()
})

test('trending sellers and creators: cards or No Data, and a card opens the profile', async () => {
  for (const [path, heading] of [['/trending-sellers', 'Trending sellers'], ['/trending-creators', 'Trending creators']]) {
    await open(path)
    await page.getByRole('heading', { name: heading }).waitFor()
    await page.locator('[data-testid="seller-card"], [data-testid="empty-message"]').first().waitFor({ timeout: 20000 })
    const cards = page.getByTestId('seller-card')
    if (!(await cards.count())) continue
    // The signed-in user's own card opens /myprofile, anyone else's /user/{id}.
    const mine = cards.filter({ hasText: `@${user.username}` })
    if (await mine.count()) assert.equal(await mine.getByRole('link').getAttribute('href'), '/myprofile')
    const href = await cards.first().getByRole('link').getAttribute('href')
    assert.match(href ?? '', /^\/myprofile$|^\/user\/[^/]+$/)
    await cards.first().getByRole('link').click()
    await page.waitForURL((url) => url.pathname === href)
  }
  // A visitor's view of a creator page: the profile with a way back (the user's own id would
  // go to /myprofile).
  const visitor = await browser.newPage()
  await visitor.goto(`${BASE}/trending-creators/${userId}`)
  await visitor.getByRole('link', { name: /Back to the list/ }).waitFor({ timeout: 20000 })
  await visitor.getByText(`@${user.username}`).waitFor()
  assert.equal(await visitor.getByRole('tab', { name: /Created/ }).getAttribute('aria-selected'), 'true')
  await visitor.close()
})

test('favourites: a bookmarked NFT is listed under NFTs, not under auctions', async () => {
  await open('/favourites?type=nft-bookmark')
  await page.getByText('no data').waitFor()
  await open('/myprofile?tab=created')
  await nftCard(nftTitle).getByRole('link', { name: nftTitle }).first().click()
  await page.getByTestId('bookmark-toggle').click()
  await page.waitForFunction(() => document.querySelector('[data-testid="bookmark-toggle"]')?.getAttribute('aria-label') !== 'Bookmark')
  await open('/favourites?type=nft-bookmark')
  await nftCard(nftTitle).waitFor({ timeout: 20000 })
  await page.getByRole('tab', { name: /Auctions/ }).click()
  await page.waitForURL(/type=auction-bookmark/)
  await page.getByText('no data').waitFor()
})
