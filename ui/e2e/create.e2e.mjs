// End-to-end test of create asset and update NFT against the real stack (`scripts/run`: API + UI,
// local chain, dev mailbox, dev wallet):
//
//   E2E_BASE_URL=http://localhost:8080 node --test e2e/create.e2e.mjs
//
// A user links dev wallet account 4, sees the spec's messages of both steps, creates an auction
// with a property and a royalty and an NFT not for sale, and puts the latter on a fixed sale from
// /nft/update/{id}. The read API and the detail page show what the chain and the record calls say.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { TINY_PNG, createNft } from './create-asset.mjs'
import { BASE, latestCode, launchBrowser, openPage } from './support.mjs'

const TIMEOUT = 90000
const stamp = Date.now().toString(36)
const user = { email: `e2e-create-${stamp}@example.com`, fullName: 'Creator Cat', username: `cr${stamp}`, password: 'create-Passw0rd' }
const ROYALTY_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const titles = { auction: `Lantern ${stamp}`, unlisted: `Harbour ${stamp}` }

let browser
let page

const open = (path) => openPage(page, path)

async function nftByTitle(title) {
  const response = await fetch(`${BASE}/api/nft/explore/?formOfSale=ALL&search=${encodeURIComponent(title)}`)
  const { body } = await response.json()
  const nft = body.data.find((n) => n.title === title)
  assert.ok(nft, `${title} is listed`)
  return nft
}

const errors = () => page.locator('.chakra-field__errorText, [data-testid$="-error"]').allInnerTexts()

before(async () => {
  browser = await launchBrowser()
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
  await context.addInitScript(() => localStorage.setItem('devWallet.accountIndex', '4'))
  page = await context.newPage()
  const response = await fetch(`${BASE}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...user, confirmPassword: user.password }),
  })
  assert.equal(response.status, 200, 'registered')
  const verified = await fetch(`${BASE}/api/auth/verifyaccount`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ verificationCode: await latestCode(user.email), email: user.email }),
  })
  const token = (await verified.json()).body.accessToken
  await context.addCookies([{ name: 'secret', value: token, url: BASE }])
})

after(async () => {
  await browser?.close()
})

test('create asset asks for a wallet, then shows the messages of both steps on submit', async () => {
  await open('/create-asset')
  await page.getByTestId('wallet-dialog').waitFor()
  await page.getByTestId('wallet-option-devWallet').click()
  await page.getByText('Connected!').first().waitFor({ timeout: TIMEOUT })

  await page.getByTestId('create-next').click()
  assert.deepEqual(await errors(), ['Please upload image.', "NFT name can't be empty.", "NFT description can't be empty.", "NFT category can't be empty."])
  await page.getByLabel('Name').fill('Almost')
  assert.ok(!(await errors()).includes("NFT name can't be empty."), 'the name message clears as the name is typed')

  await page.getByTestId('asset-file-input').setInputFiles({ name: 'nft.png', mimeType: 'image/png', buffer: TINY_PNG })
  await page.getByLabel('Description').fill('Checks the messages')
  await page.getByLabel('Category').selectOption({ index: 1 })
  await page.getByTestId('create-next').click()
  await page.getByRole('heading', { name: 'Add NFT' }).waitFor({ timeout: TIMEOUT })
  await page.getByTestId('create-submit').click()
  assert.deepEqual(await errors(), ['Please provide NFT price.', 'Please provide royalty information.'])
  await page.getByTestId('sale-form-AUCTION').click()
  await page.getByTestId('sale-basePrice').fill('2')
  await page.getByTestId('sale-buyPrice').fill('1')
  await page.getByTestId('sale-auctionEnd').fill('2020-01-01T00:00')
  await page.getByTestId('create-submit').click()
  assert.deepEqual(await errors(), ['Buy price should be greater than base price.', 'invalid date', 'Please provide royalty information.'])
})

test('an auction with a property and a royalty is minted on chain and recorded with its details', async () => {
  const end = new Date(Date.now() + 30 * 3600 * 1000)
  end.setSeconds(0, 0)
  await createNft(page, {
    base: BASE,
    title: titles.auction,
    description: 'A lantern over the harbour.',
    properties: [['Light', 'Warm']],
    sale: { formOfSale: 'AUCTION', basePrice: '0.5', buyPrice: '2', auctionEnd: end },
    royalties: [[ROYALTY_TO, '2.5']],
    timeoutMs: TIMEOUT,
  })
  const nft = await nftByTitle(titles.auction)
  assert.equal(nft.formOfSale, 'AUCTION')
  assert.equal(nft.description, 'A lantern over the harbour.')
  assert.deepEqual(nft.properties, [{ key: 'Light', value: 'Warm' }])
  assert.deepEqual(nft.royalty.map((r) => [r.walletAddress.toLowerCase(), r.percentage]), [[ROYALTY_TO.toLowerCase(), 2.5]])
  assert.equal(Number(nft.currentAuction.auctionStartPrice), 0.5)
  assert.equal(Number(nft.currentAuction.auctionBuyNowPrice), 2)
  assert.equal(new Date(nft.currentAuction.auctionEndHours).getTime(), end.getTime())
  assert.equal(nft.creator.username, user.username)
})

test('an NFT not for sale is put on a fixed sale from its update page', async () => {
  await createNft(page, { base: BASE, title: titles.unlisted, sale: { formOfSale: 'NOT_FOR_SALE' }, timeoutMs: TIMEOUT })
  const { _id: id, formOfSale } = await nftByTitle(titles.unlisted)
  assert.equal(formOfSale, 'NOT_FOR_SALE')

  await open(`/nft/update/${id}`)
  await page.getByTestId('update-form').waitFor({ timeout: TIMEOUT })
  await page.getByTestId('update-submit').click()
  assert.deepEqual(await errors(), ['Please provide NFT price.'])
  await page.getByTestId('sale-price').fill('7.25')
  await page.getByTestId('update-preview').getByText(/(?<![\d.])7\.250*\s*MATIC/).waitFor()
  await page.getByTestId('update-submit').click()
  await page.waitForURL((url) => url.pathname === '/myprofile', { timeout: TIMEOUT })
  await page.getByTestId('snackbar').filter({ hasText: 'NFT updated!' }).first().waitFor()

  const after = await nftByTitle(titles.unlisted)
  assert.equal(after.formOfSale, 'FIXEDPRICE')
  assert.equal(Number(after.fixedPrice), 7.25)
  await open(`/nft/update/${id}`)
  await page.getByText('This NFT is on sale. Stop the sale before you update it.').waitFor({ timeout: TIMEOUT })
})
