// End-to-end test of API keys, against the real stack (`marketplace dev`):
//
//   E2E_BASE_URL=http://127.0.0.1:8080 node --test e2e/keys.e2e.mjs
//
// A new person, on a phone, reaches Settings from the phone's menu and API keys from the row of
// settings links, creates a read-only key (shown once), and a script uses it: it reads the
// person's notifications' count with a key that lacks the scope (403), their own profile with the
// read scope, each answer announcing the key's budget; the person revokes the key in the page,
// and the very next call with it is refused (401).
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { BASE, launchBrowser, signUp } from './support.mjs'

const TIMEOUT = 60000
const stamp = Date.now().toString(36)
const USER = { email: `keys_${stamp}@example.com`, fullName: 'Key Holder', username: `keys_${stamp}`, password: 'Keys-e2e-2024' }

let browser

before(async () => {
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
})

/** A call of the API with `key` as a bearer token: status, body and the rate limit headers. */
async function withKey(key, path) {
  const response = await fetch(`${BASE}${path}`, { headers: { Authorization: `Bearer ${key}` } })
  return { status: response.status, body: await response.json(), policy: response.headers.get('ratelimit-policy'), limit: response.headers.get('ratelimit') }
}

test('a person makes a read-only key in settings, a script uses it within its scope, and a revoked key is refused at once', { timeout: 4 * TIMEOUT }, async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const page = await context.newPage()
  await signUp(page, USER)
  await page.waitForURL(`${BASE}/`, { timeout: TIMEOUT })

  // Settings from the phone's menu, API keys from the row of links a phone shows.
  await page.getByTestId('drawer-button').click()
  await page.getByTestId('mobile-drawer').getByRole('link', { name: 'Settings' }).click()
  await page.getByTestId('settings-mobile-menu').getByRole('link', { name: 'API keys' }).click()
  await page.getByTestId('api-keys-empty').waitFor({ timeout: TIMEOUT })

  await page.getByTestId('api-key-create').click()
  await page.getByTestId('api-key-name').fill('Floor watcher')
  await page.getByTestId('api-key-submit').click()
  const secret = (await page.getByTestId('api-key-secret').innerText({ timeout: TIMEOUT })).trim()
  assert.match(secret, /^mk_live_[0-9A-Za-z]{40}$/)
  await page.getByRole('button', { name: 'Done' }).click()
  const row = page.getByTestId('api-key').filter({ hasText: 'Floor watcher' })
  await row.waitFor({ timeout: TIMEOUT })
  assert.ok((await row.innerText()).includes(secret.slice(0, 12)), 'the list shows the key by its prefix')
  assert.ok(!(await page.content()).includes(secret), 'once closed, the key is nowhere on the page')

  // Its own data within its scope; the notifications are another scope's.
  const profile = await withKey(secret, '/api/account/myprofile')
  assert.equal(profile.status, 200, JSON.stringify(profile.body))
  assert.equal(profile.body.body.username, USER.username)
  assert.match(profile.policy ?? '', /q=\d+;w=60/)
  assert.match(profile.limit ?? '', /r=\d+;t=\d+/)
  const notices = await withKey(secret, '/api/notifications/unread')
  assert.equal(notices.status, 403)
  assert.match(notices.body.message, /notifications/)

  // Revoked in the page: refused on the next call.
  await row.getByTestId('api-key-revoke').click()
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Revoke' }).click()
  await page.getByTestId('api-keys-empty').waitFor({ timeout: TIMEOUT })
  const revoked = await withKey(secret, '/api/account/myprofile')
  assert.equal(revoked.status, 401, JSON.stringify(revoked.body))
  await context.close()
})
