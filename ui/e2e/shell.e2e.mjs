// End-to-end test of what a newcomer, a demo person and a phone user meet, on the demo data that
// `marketplace dev` fills a fresh stack with:
//
//   E2E_BASE_URL=http://localhost:8080 node --test e2e/shell.e2e.mjs
//
// ada_lumen signs in, is told which wallet holds her NFT, picks her own Dev wallet account
// (marked as hers among accounts 0-19), updates one of her NFTs and burns another; the balance
// reads short (no "..."); the avatar menu reaches /favourites. On a 390 px phone a visitor can log
// in from the header, browse lists show two cards a row, and the NFT page's action bar is on
// screen without scrolling.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { BASE, api, chooseDevWallet, demoFinished, launchBrowser, openPage } from './support.mjs'

const TIMEOUT = 90000
const ADA = { email: 'ada_lumen@demo.example.com', password: 'demo-market-2024', username: 'ada_lumen' }
/** The dev mnemonic's account the demo gives ada_lumen (api/src/demo/plan.rs: FIRST_ACCOUNT + 0). */
const ADA_ACCOUNT = 10
const PHONE = { width: 390, height: 844 }

let browser

/** NFTs of the whole market (every sale type), as browse cards. */
async function market() {
  const cards = []
  for (let page = 1; ; page += 1) {
    const body = await api(`/api/nft/explore/?formOfSale=ALL&page=${page}&limit=50`)
    cards.push(...body.data)
    if (body.lastPage || body.data.length === 0) return cards
  }
}

/** The snackbar with `expected` (fails with the first snackbar's words otherwise). */
async function snackbar(page, expected) {
  try {
    await page.getByTestId('snackbar').filter({ hasText: expected }).first().waitFor({ timeout: TIMEOUT })
  } catch {
    throw new Error(`expected '${expected}', saw '${await page.getByTestId('snackbar').first().innerText().catch(() => 'nothing')}'`)
  }
}

before(async () => {
  browser = await launchBrowser()
  await demoFinished()
})

after(async () => {
  await browser?.close()
})

test('ada_lumen picks her own Dev wallet account, updates one of her NFTs and burns another', async () => {
  const mine = (await market()).filter((n) => n.currentOwner?.username === ADA.username)
  const notForSale = mine.filter((n) => n.formOfSale === 'NOT_FOR_SALE')
  const onSale = mine.filter((n) => n.formOfSale === 'FIXEDPRICE')
  assert.ok(notForSale.length + onSale.length >= 2, `ada_lumen holds two NFTs to update and burn (${mine.length})`)
  const wallets = await api('/api/dev/wallets')
  assert.equal(wallets.length, 20)
  const adaAddress = wallets[ADA_ACCOUNT].address
  assert.equal(wallets[ADA_ACCOUNT].linkedTo?.username, ADA.username)

  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage()
  await openPage(page, '/authentication/sign-in')
  await page.getByLabel('Email').fill(ADA.email)
  await page.getByLabel('Password').fill(ADA.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByTestId('avatar-menu').waitFor()

  // Before any form, the NFT page names the wallet that holds the NFT.
  await openPage(page, `/nft/${mine[0]._id}`)
  const notice = page.getByTestId('owner-wallet-notice')
  await notice.waitFor({ timeout: TIMEOUT })
  assert.equal(await notice.getByTestId('owner-wallet-address').innerText(), adaAddress)
  await notice.getByTestId('owner-wallet-connect').click()

  // The dialog offers her account first, marked as hers, and names the address needed.
  const select = page.getByTestId('dev-wallet-account')
  await page.waitForFunction((index) => document.querySelector('[data-testid="dev-wallet-account"]')?.value === String(index), ADA_ACCOUNT, { timeout: TIMEOUT })
  const label = await select.locator(`option[value="${ADA_ACCOUNT}"]`).innerText()
  assert.match(label, /· yours$/)
  assert.equal(await select.locator('option').count(), 20)
  assert.match(await select.locator('option[value="11"]').innerText(), /@kofi_waves$/)
  assert.match(await page.getByTestId('wallet-dialog-wanted').innerText(), new RegExp(adaAddress))
  await chooseDevWallet(page)
  await notice.waitFor({ state: 'detached' })

  // The balance reads short, with the exact figure on hover.
  const balance = page.getByTestId('wallet-menu').getByTestId('wallet-balance')
  await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="wallet-menu"] [data-testid="wallet-balance"]')?.textContent ?? ''))
  const shown = await balance.innerText()
  assert.ok(!shown.includes('...'), `the balance "${shown}" is not an ellipsis`)
  assert.match(shown, /^(< )?[\d.,]+\s?[KMB]? MATIC$/)

  // Two NFTs not for sale (an earlier run took the demo's): stop sales as the owner until there are.
  while (notForSale.length < 2) {
    const nft = onSale.shift()
    await openPage(page, `/explore/${nft._id}`)
    await page.getByTestId('trade-panel').getByRole('button', { name: 'Stop Sale' }).click()
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Stop Sale' }).click()
    await snackbar(page, 'Sale Stopped!')
    notForSale.push(nft)
  }
  const [toBurn, toUpdate] = notForSale

  // Burn.
  await openPage(page, `/nft/${toBurn._id}`)
  await page.getByTestId('trade-panel').getByRole('button', { name: 'Burn NFT' }).click()
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Burn NFT' }).click()
  await snackbar(page, 'NFT Burned!')
  await page.waitForURL(/\/myprofile$/, { timeout: TIMEOUT })
  const burned = await fetch(`${BASE}/api/nft/detail/${toBurn._id}`)
  assert.equal(burned.status, 404, 'the burned NFT is gone')

  // Update: put the other one on a fixed sale.
  await openPage(page, `/nft/update/${toUpdate._id}`)
  await page.getByLabel('Price (MATIC)').fill('3.5')
  assert.equal(await page.getByTestId('owner-wallet-notice').count(), 0, 'the right wallet is connected')
  await page.getByTestId('update-submit').click()
  await snackbar(page, 'NFT updated!')
  await page.waitForURL(/\/myprofile$/, { timeout: TIMEOUT })
  const updated = await api(`/api/nft/detail/${toUpdate._id}`)
  assert.equal(updated.formOfSale, 'FIXEDPRICE')

  // The avatar menu reaches the favourites.
  await page.getByTestId('avatar-menu').click()
  await page.getByRole('menuitem', { name: 'Favourites' }).click()
  await page.waitForURL(/\/favourites/)
  await page.context().close()
})

test('on a 390 px phone: login in the header, two cards a row, the action bar on screen', async () => {
  const page = await (await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })).newPage()
  await openPage(page, '/explore?type=all')
  assert.ok(await page.getByTestId('mobile-login').isVisible(), 'a visitor can log in from the header')

  const cards = page.getByTestId('nft-card')
  await cards.nth(1).waitFor({ timeout: TIMEOUT })
  const [first, second] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()]
  assert.equal(Math.round(first.y), Math.round(second.y), 'two cards side by side')
  assert.ok(first.width > 150 && first.x + first.width <= second.x, `cards of ${first.width} px`)

  const forSale = (await market()).find((n) => n.formOfSale === 'FIXEDPRICE')
  await openPage(page, `/explore/${forSale._id}`)
  const bar = page.getByTestId('action-bar')
  await bar.waitFor({ timeout: TIMEOUT })
  const box = await bar.boundingBox()
  assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `the bar (${box.y}-${box.y + box.height}) is within the first screen`)
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'without scrolling')
  assert.ok(await bar.getByRole('button', { name: 'Buy now' }).isVisible())
  assert.match(await bar.getByTestId('action-bar-price').innerText(), /MATIC/)
  await page.context().close()
})
