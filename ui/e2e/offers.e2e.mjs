// End-to-end test of offers and the cart against the real stack (`marketplace dev`: API + UI,
// local chain, dev mailbox, dev wallet), with three users in three browser contexts linking dev
// wallet accounts 6, 7 and 8 (the other suites link 0-5, the demo people 10 on):
//
//   E2E_BASE_URL=http://127.0.0.1:8080 node --test e2e/offers.e2e.mjs
//
// B offers on A's NFT that is not for sale and A accepts: B owns it. C's offer expires: A cannot
// accept it (no button, and the contract refuses it), C withdraws it and gets the money back. B
// fills a cart with three of A's NFTs, C buys one of them meanwhile, and B's one transaction buys
// the other two and names the one skipped. Everything it needs it creates itself.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createPublicClient, http, parseAbi, parseEther } from 'viem'
import { createNft, localDateTime } from './create-asset.mjs'
import { BASE, devAddress, launchBrowser, nftDetail, nftIdByTitle, openPage as open, signUpAndLink, snackbar } from './support.mjs'

const TIMEOUT = 90000
const stamp = Date.now().toString(36)
const users = ['a', 'b', 'c'].map((name, i) => ({
  name,
  account: 6 + i,
  email: `e2e-offer-${name}-${stamp}@example.com`,
  fullName: `Offerer ${name.toUpperCase()}`,
  username: `of${name}${stamp}`,
  password: 'offer-Passw0rd',
}))
const [A, B, C] = users
const titles = { lantern: `Lantern ${stamp}`, quay: `Quay ${stamp}`, cart: [1, 2, 3].map((n) => `Cart ${n} ${stamp}`) }
const abi = parseAbi([
  'function acceptOfferFrom(uint256 tokenId, address offerer, uint256 expectedAmount, uint256 minProceeds)',
  'function offerOf(uint256 tokenId, address offerer) view returns (uint256 amount, uint64 expiresAt, uint96 feeBps)',
  'error MarketplaceOfferExpired(uint256 tokenId, address offerer, uint64 expiresAt)',
])

let browser
let chain
let contract

before(async () => {
  const { body: config } = await (await fetch(`${BASE}/api/config`)).json()
  // The server's RPC proxy (relative to the site), as the app reads the chain.
  chain = createPublicClient({ transport: http(new URL(config.rpcUrl, BASE).href) })
  contract = config.contractAddress
  browser = await launchBrowser()
  for (const user of users) {
    await signUpAndLink(browser, user)
    user.address = await devAddress(user.account)
  }
})

after(async () => {
  await browser?.close()
})

const offersOf = async (id, state = 'ALL') => (await (await fetch(`${BASE}/api/nft/${id}/offers?state=${state}&limit=50`)).json()).body.data

/** Makes an offer of `amount` MATIC on the NFT page; `expiresAt`: a custom expiry (else the default 7 days). */
async function makeOffer(page, id, amount, expiresAt) {
  await open(page, `/nft/${id}`)
  await page.getByTestId('not-for-sale-message').waitFor()
  await page.getByTestId('make-offer').click()
  const dialog = page.getByTestId('make-offer-dialog')
  await dialog.getByTestId('offer-amount').fill(amount)
  if (expiresAt) {
    await dialog.getByTestId('offer-expiry').selectOption('custom')
    await dialog.getByTestId('offer-expiry-custom').fill(localDateTime(expiresAt))
  }
  await dialog.getByTestId('offer-submit').click()
  await snackbar(page, 'Offer made!')
}

/** The row of `user`'s offer in the NFT page's Offers tab (open on `page`). */
const offerRow = (page, user) => page.locator(`[data-testid="offer-row"][data-offerer="${user.address.toLowerCase()}"]`)

test("B offers on A's NFT that is not for sale; A accepts it, naming the amount; B owns it", async () => {
  await createNft(A.page, { base: BASE, title: titles.lantern, sale: { formOfSale: 'NOT_FOR_SALE' }, timeoutMs: TIMEOUT })
  const id = await nftIdByTitle(titles.lantern)

  await makeOffer(B.page, id, '0.3')
  await B.page.getByTestId('my-offer').filter({ hasText: /0\.300\s*MATIC/ }).waitFor()

  await open(A.page, `/nft/${id}`)
  const row = offerRow(A.page, B)
  await row.waitFor()
  assert.match(await row.innerText(), /0\.300\s*MATIC/)
  assert.match(await row.innerText(), /Active/)
  await row.getByTestId('offer-accept').click()
  const dialog = A.page.getByTestId('confirm-dialog')
  await dialog.getByText(new RegExp(`Please confirm that you want to accept the offer of 0\\.300\\sMATIC from ${B.username}\\. After Confirmation you cannot undo the Action\\.`)).waitFor()
  await dialog.getByRole('button', { name: /^Accept 0\.300.MATIC$/ }).click()
  await snackbar(A.page, 'Offer Accepted!')

  const nft = await nftDetail(id)
  assert.equal(nft.currentOwner.username, B.username)
  await open(B.page, '/myoffers?state=ACCEPTED')
  await B.page.getByTestId('offer-row').filter({ hasText: titles.lantern }).getByTestId('offer-state').and(B.page.locator('[data-state="ACCEPTED"]')).waitFor({ timeout: TIMEOUT })
})

test("C's offer expires and cannot be accepted; C withdraws it and gets the money back", async () => {
  await createNft(A.page, { base: BASE, title: titles.quay, sale: { formOfSale: 'NOT_FOR_SALE' }, timeoutMs: TIMEOUT })
  const id = await nftIdByTitle(titles.quay)
  const tokenId = BigInt(id.split('-').pop())
  // The form takes minutes: the first whole minute at least 40 s ahead.
  const expiresAt = new Date(Math.ceil((Date.now() + 40000) / 60000) * 60000)
  await makeOffer(C.page, id, '0.2', expiresAt)

  await open(A.page, `/nft/${id}`)
  await offerRow(A.page, C).getByTestId('offer-accept').waitFor()
  // Past its expiry the read side calls it EXPIRED.
  while (Date.now() < expiresAt.getTime() + 1000) await new Promise((r) => setTimeout(r, 1000))
  assert.equal((await offersOf(id, 'EXPIRED')).length, 1)
  await open(A.page, `/nft/${id}`)
  const row = offerRow(A.page, C)
  await row.getByTestId('offer-state').and(A.page.locator('[data-state="EXPIRED"]')).waitFor()
  assert.equal(await row.getByTestId('offer-accept').count(), 0)
  // And the contract refuses it anyway (in the next block, past the expiry).
  await assert.rejects(
    chain.simulateContract({ address: contract, abi, functionName: 'acceptOfferFrom', args: [tokenId, C.address, parseEther('0.2'), 0n], account: A.address, blockTag: 'pending' }),
    /MarketplaceOfferExpired/,
  )

  const before = await chain.getBalance({ address: C.address })
  await open(C.page, '/myoffers?state=EXPIRED')
  const mine = C.page.getByTestId('offer-row').filter({ hasText: titles.quay })
  await mine.getByRole('button', { name: 'Withdraw' }).click()
  await C.page.getByTestId('confirm-dialog').getByRole('button', { name: 'Withdraw offer' }).click()
  await snackbar(C.page, /Offer cancelled! 0\.200\sMATIC went back to your wallet\./)
  const back = (await chain.getBalance({ address: C.address })) - before
  assert.ok(back > parseEther('0.199') && back <= parseEther('0.2'), `C got ${back} wei back`)
  const [left] = await chain.readContract({ address: contract, abi, functionName: 'offerOf', args: [tokenId, C.address] })
  assert.equal(left, 0n)
  assert.equal((await offersOf(id, 'CANCELLED')).length, 1)
})

test('a cart of three where one was bought meanwhile buys two and names the skipped one', async () => {
  const prices = ['0.1', '0.15', '0.2']
  for (const [i, title] of titles.cart.entries()) {
    await createNft(A.page, { base: BASE, title, sale: { formOfSale: 'FIXEDPRICE', price: prices[i] }, royalties: [[A.address, '1']], timeoutMs: TIMEOUT })
  }
  const ids = await Promise.all(titles.cart.map(nftIdByTitle))

  // Two from their cards on /explore, the third from its page.
  await open(B.page, `/explore?search=${encodeURIComponent(`Cart ${stamp}`)}`)
  for (const title of titles.cart.slice(0, 2)) {
    const card = B.page.getByTestId('nft-card').filter({ hasText: title })
    await card.getByRole('button', { name: 'Add to cart' }).click()
    await card.getByRole('button', { name: 'Remove from cart' }).waitFor()
  }
  await open(B.page, `/explore/${ids[2]}`)
  await B.page.getByTestId('add-to-cart').click()
  await B.page.locator('[data-testid="cart-count"]:visible').filter({ hasText: '3' }).waitFor()
  await B.page.locator('[data-testid="cart-button"]:visible').click()
  const drawer = B.page.getByTestId('cart-drawer')
  await drawer.getByTestId('cart-total').filter({ hasText: /0\.450\s*MATIC/ }).waitFor()
  await drawer.getByRole('button', { name: 'Buy 3 NFTs' }).waitFor()

  // C buys the second meanwhile; B's drawer still shows what B saw.
  await open(C.page, `/explore/${ids[1]}`)
  await C.page.getByTestId('buy-now').click()
  await snackbar(C.page, 'Congratulations!!! You are now the owner of this NFT.')

  await drawer.getByTestId('cart-buy').click()
  // One message lists what was bought and what was not.
  await snackbar(B.page, /Congratulations!!! You now own 2 NFTs:/)
  await snackbar(B.page, new RegExp(`Not bought: ${titles.cart[1]};`))
  const result = drawer.getByTestId('cart-result')
  for (const i of [0, 2]) {
    const line = result.locator(`[data-testid="cart-bought"][data-nft="${ids[i]}"]`)
    await line.waitFor()
    assert.match(await line.innerText(), new RegExp(`Owner now: ${B.username}`))
  }
  assert.match(await result.locator(`[data-testid="cart-skipped"][data-nft="${ids[1]}"]`).innerText(), new RegExp(titles.cart[1]))

  assert.equal((await nftDetail(ids[0])).currentOwner.username, B.username)
  assert.equal((await nftDetail(ids[1])).currentOwner.username, C.username)
  assert.equal((await nftDetail(ids[2])).currentOwner.username, B.username)
})
