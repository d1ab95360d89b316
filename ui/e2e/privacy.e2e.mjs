// End-to-end test of "Download my data" and "Delete my account", against the real stack
// (`marketplace dev`: API + UI, local chain, dev mailbox, dev wallet):
//
//   E2E_BASE_URL=http://127.0.0.1:8080 node --test e2e/privacy.e2e.mjs
//
// A new person links dev wallet account 18 (no other suite links it: they use 0-9 and 19, the
// demo people 10-17) and puts an NFT of their own on sale. In Settings > Privacy they download
// their data (a JSON file holding their username and e-mail address), then open "Delete my
// account": the dialog lists their listing, still open on chain, with a link to its page; a wrong
// password is refused in the dialog without signing them out; theirs deletes the account and they
// land signed out on the home page. Afterwards their old credentials no longer sign in, their
// profile page says "Deleted user", and the NFT's page shows it owned by the wallet address, not
// by a name.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, test } from 'node:test'
import { createNft } from './create-asset.mjs'
import { BASE, devAddress, launchBrowser, nftDetail, nftIdByTitle, openPage, signUpAndLink, snackbar } from './support.mjs'

const TIMEOUT = 90000
const ACCOUNT = Number(process.env.E2E_PRIVACY_ACCOUNT ?? 18)
const stamp = Date.now().toString(36)
const user = { account: ACCOUNT, email: `privacy-${stamp}@example.com`, fullName: 'Petra Private', username: `priv${stamp}`, password: 'privacy-Passw0rd' }
const title = `Quiet harbour ${stamp}`

let browser
let page
let nftId
let userId
let address

before(async () => {
  browser = await launchBrowser()
  address = await devAddress(ACCOUNT)
})

after(async () => {
  await browser?.close()
})

/** Signs in through the form; the caller waits for what it expects next. */
async function signIn(email, password) {
  await openPage(page, '/authentication/sign-in')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

test('a person with a wallet puts an NFT of their own on sale', { timeout: 4 * TIMEOUT }, async () => {
  page = await signUpAndLink(browser, user)
  await createNft(page, {
    base: BASE,
    title,
    sale: { formOfSale: 'FIXEDPRICE', price: '3' },
    royalties: [[address, '1']],
    timeoutMs: TIMEOUT,
  })
  nftId = await nftIdByTitle(title)
  const nft = await nftDetail(nftId)
  assert.equal(nft.currentOwner.username, user.username)
  assert.equal(nft.currentOwner.ownerAddress.toLowerCase(), address.toLowerCase())
  userId = nft.currentOwner.userId
  assert.ok(userId, 'the owner is a person')
})

test('they download their data: one JSON file with their username and e-mail address', { timeout: 2 * TIMEOUT }, async () => {
  assert.ok(page, 'the first test signed the person up')
  await openPage(page, '/profile/privacy')
  await page.getByTestId('data-download').waitFor({ timeout: TIMEOUT })
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), page.getByTestId('data-download').click()])
  assert.equal(download.suggestedFilename(), 'marketplace-data.json')
  const text = await readFile(await download.path(), 'utf8')
  const data = JSON.parse(text)
  assert.equal(typeof data, 'object')
  assert.ok(text.includes(user.username), 'the file holds the username')
  assert.ok(text.includes(user.email), 'the file holds the e-mail address')
  assert.ok(text.toLowerCase().includes(address.toLowerCase()), 'the file holds the linked wallet')
})

test('they delete their account in the dialog: a wrong password is refused there, theirs signs them out', { timeout: 4 * TIMEOUT }, async () => {
  assert.ok(page, 'the first test signed the person up')
  await openPage(page, '/profile/privacy')
  await page.getByTestId('account-delete').click()
  const dialog = page.getByTestId('delete-account-dialog')
  await dialog.getByTestId('delete-account-goes').waitFor({ timeout: TIMEOUT })
  assert.match(await dialog.getByTestId('delete-account-stays').innerText(), /under your wallet address/)
  const wallets = await dialog.getByTestId('delete-account-wallets').innerText()
  assert.ok(wallets.toLowerCase().includes(address.toLowerCase()), `the dialog names the linked wallet (${wallets})`)

  // The listing is still open on chain: only the wallet can cancel it, from the NFT's page.
  const open = dialog.getByTestId('delete-account-open')
  assert.match(await open.innerText(), /only your wallet can, on chain/)
  const item = open.getByTestId('delete-account-open-item').filter({ hasText: title })
  assert.equal(await item.getByRole('link', { name: title }).getAttribute('href'), `/nft/${nftId}`)

  const confirm = dialog.getByTestId('delete-account-confirm')
  assert.equal(await confirm.isDisabled(), true, 'nothing to confirm with yet')
  await dialog.getByTestId('delete-account-password').fill('not-the-password')
  const refusal = page.waitForResponse((r) => r.url().endsWith('/api/account/delete'), { timeout: TIMEOUT })
  await confirm.click()
  const refused = await refusal
  assert.equal(refused.status(), 401)
  const { message } = await refused.json()
  assert.ok(message, 'the server says why')
  await dialog.getByText(message).waitFor({ timeout: TIMEOUT })
  assert.equal(new URL(page.url()).pathname, '/profile/privacy', 'a wrong password does not sign the person out')

  await dialog.getByTestId('delete-account-password').fill(user.password)
  await confirm.click()
  await page.waitForURL(`${BASE}/`, { timeout: TIMEOUT })
  assert.equal(new URL(page.url()).search, '', 'home, not sign-in or /token-expiry')
  await snackbar(page, 'Your account was deleted.', TIMEOUT)
  await page.getByRole('link', { name: 'Login' }).first().waitFor({ timeout: TIMEOUT })
  assert.equal(await page.getByTestId('avatar-menu').count(), 0, 'signed out')
  assert.equal((await page.context().cookies()).some((c) => c.name === 'secret' && c.value), false, 'the session cookie is gone')
})

test('the old credentials no longer sign in', { timeout: 2 * TIMEOUT }, async () => {
  assert.ok(page, 'the first test signed the person up')
  await signIn(user.email, user.password)
  await page.getByTestId('auth-error').waitFor({ timeout: TIMEOUT })
  assert.match(new URL(page.url()).pathname, /\/authentication\/sign-in/)
  const login = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  })
  assert.notEqual(login.status, 200, 'the API refuses the old credentials too')
})

test('their profile page says Deleted user, and their NFT stays owned by the wallet address, not a name', { timeout: 2 * TIMEOUT }, async () => {
  assert.ok(userId && nftId, 'the first test made the NFT')
  await openPage(page, `/user/${userId}`)
  await page.getByRole('heading', { level: 1, name: 'Deleted user' }).waitFor({ timeout: TIMEOUT })
  const content = await page.content()
  assert.ok(!content.includes(user.username), 'the page no longer names the person')
  assert.ok(!content.includes(user.fullName), 'nor shows their full name')
  assert.equal(await page.getByTestId('target-menu').count(), 0, 'nothing to report or follow')

  await openPage(page, `/nft/${nftId}`)
  const owner = page.getByTestId('nft-owner')
  await owner.waitFor({ timeout: TIMEOUT })
  const shown = (await owner.innerText()).trim()
  const lower = shown.toLowerCase()
  assert.ok(lower.includes(address.slice(0, 6).toLowerCase()) && lower.includes(address.slice(-4).toLowerCase()), `the owner is shown by the address (${shown})`)
  assert.ok(!shown.includes(user.username) && !shown.includes('deleted-'), `and by no name (${shown})`)
  const nft = await nftDetail(nftId)
  assert.equal(nft.currentOwner.ownerAddress.toLowerCase(), address.toLowerCase(), 'the chain still has the NFT under the address')
  assert.notEqual(nft.currentOwner.username, user.username)
})
