// End-to-end test of the accounts, wallet and shell screens against the real stack
// (`scripts/run` at the repository root: API + UI on http://localhost:8080, local chain, dev
// mailbox, dev wallet). Not part of `npm test`:
//
//   E2E_BASE_URL=http://localhost:8080 npm run e2e
//
// Drives Debian's /usr/bin/chromium with playwright-core. The verification code comes from the
// server's dev mailbox (GET /api/dev/mailbox?to=<email>, newest first).
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { BASE, chooseDevWallet, launchBrowser, openPage, signUp } from './support.mjs'

const stamp = Date.now().toString(36)
const user = { email: `e2e-${stamp}@example.com`, fullName: 'End To End', username: `e2e${stamp}`, password: 'first-Passw0rd', newPassword: 'second-Passw0rd' }
// A 1x1 PNG, for the avatar upload.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

let browser
let page

const open = (path) => openPage(page, path)

const EXPIRY_TEXT = 'Token Expired. Logging Out...'

/**
 * Records, from inside the page, whether the token-expiry message was ever rendered: the page
 * shows it only briefly, and a loaded machine can starve a polling wait of that window.
 */
function watchForExpiryMessage(text) {
  window.__expirySeen = false
  const check = () => {
    if (document.body?.innerText.includes(text)) window.__expirySeen = true
  }
  // `document` itself: an init script runs before the root element exists.
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true })
}

async function expiryMessageWasShown() {
  return page.evaluate(() => window.__expirySeen === true)
}

before(async () => {
  browser = await launchBrowser()
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.addInitScript(watchForExpiryMessage, EXPIRY_TEXT)
  page = await context.newPage()
})

after(async () => {
  await browser?.close()
})

test('sign up, verify with the mailed code, and land signed in', async () => {
  await signUp(page, user)
  await page.waitForURL(`${BASE}/`)
  await page.getByTestId('avatar-menu').waitFor()
})

test('edit the profile with an avatar', async () => {
  await open('/profile/edit-profile')
  await page.getByLabel('Bio').fill('Made by the end-to-end test.')
  await page.getByLabel('Mobile number').fill('5550100')
  await page.getByTestId('avatar-input').setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: PNG })
  await page.getByRole('button', { name: 'Save' }).click()
  await page.waitForURL(/\/profile\/user-profile$/)
  await page.getByText('Made by the end-to-end test.').waitFor()
  const src = await page.locator('[data-testid="profile-view"] img').first().getAttribute('src')
  assert.match(src ?? '', /^\/ipfs\//)
})

test('switch language and theme', async () => {
  await open('/profile/language')
  await page.getByText('Português').click()
  await page.getByRole('heading', { name: 'Idioma' }).first().waitFor()
  await page.getByText('English').first().click()
  await page.getByRole('heading', { name: 'Language' }).first().waitFor()
  await open('/profile/theme')
  await page.getByTestId('theme-light').click()
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('light')), true)
  await page.getByTestId('theme-dark').click()
  assert.equal(await page.evaluate(() => localStorage.getItem('theme')), 'dark')
})

test('connect the dev wallet (SIWE link accepted)', async () => {
  await open('/')
  await page.getByTestId('connect-wallet').click()
  await chooseDevWallet(page)
  await page.getByTestId('wallet-menu').waitFor()
})

test('change the password, sign out, sign in with the new one', async () => {
  await open('/profile/change-password')
  await page.getByLabel('Current password').fill(user.password)
  await page.getByLabel('New password', { exact: true }).fill(user.newPassword)
  await page.getByLabel('Confirm new password').fill(user.newPassword)
  await page.getByRole('button', { name: 'Change password' }).click()
  await page.getByTestId('snackbar').first().waitFor()
  await page.evaluate(watchForExpiryMessage, EXPIRY_TEXT)
  await page.getByTestId('avatar-menu').click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await page.waitForURL(/\/authentication\/sign-in/)
  assert.equal(await expiryMessageWasShown(), true, `'${EXPIRY_TEXT}' was shown on the way out`)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.newPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByTestId('avatar-menu').waitFor()
})

test('an invalid token leads through /token-expiry back to sign-in with the callback', async () => {
  await page.context().addCookies([{ name: 'secret', value: 'not-a-valid-token', url: BASE }])
  await open('/myprofile')
  await page.waitForURL(/\/authentication\/sign-in\?callbackURL=%2Fmyprofile/)
  assert.equal(await expiryMessageWasShown(), true, `'${EXPIRY_TEXT}' was shown on the way out`)
})
