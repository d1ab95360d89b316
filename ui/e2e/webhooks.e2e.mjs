// End-to-end test of webhooks, against the real stack (`marketplace dev`) started with a loopback
// receiver allowed (test only: `--webhook-allow-http --webhook-allowed-hosts 127.0.0.1:18477`;
// scripts/test does it, production stays https and public addresses only):
//
//   E2E_BASE_URL=http://127.0.0.1:8080 E2E_WEBHOOK_PORT=18477 node --test e2e/webhooks.e2e.mjs
//
// The test runs a tiny HTTP receiver on loopback. A demo person, on a phone, signs in, reaches
// Settings from the phone's menu and Webhooks from the row of settings links, registers an
// endpoint to the receiver for the market's changes and copies its secret (shown once). They like
// an NFT (through the API): the receiver gets the change, signed as Standard Webhooks says (the
// test checks the HMAC-SHA256 of `{id}.{timestamp}.{body}` with the copied secret), and the
// page's delivery log shows that position acknowledged; "Send test event" arrives signed too.
// The endpoint is deleted at the end.
import assert from 'node:assert/strict'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import { after, before, test } from 'node:test'
import { BASE, launchBrowser, openPage } from './support.mjs'

const TIMEOUT = 60000
const PORT = Number(process.env.E2E_WEBHOOK_PORT ?? 18477)
const DEMO = { email: process.env.E2E_WEBHOOK_USER ?? 'ada_lumen@demo.example.com', password: 'demo-market-2024' }
const PATH = `/hook-${Date.now().toString(36)}`

let browser
let receiver
/** What the receiver got: headers and raw body. */
const received = []

before(async () => {
  browser = await launchBrowser()
  receiver = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      if (req.url === PATH) received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(204).end()
    })
  })
  await new Promise((resolve) => receiver.listen(PORT, '127.0.0.1', resolve))
})

after(async () => {
  await browser?.close()
  // The marketplace keeps its connections to the receiver alive: close them, not wait for them.
  receiver?.closeAllConnections()
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve()))
})

/** Whether `delivery` is signed with `secret` (Standard Webhooks, v1). */
function signedWith(secret, { headers, body }) {
  const id = headers['webhook-id']
  const timestamp = headers['webhook-timestamp']
  if (!id || !timestamp || !headers['webhook-signature']) return false
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest()
  return headers['webhook-signature'].split(' ').some((entry) => {
    const [version, signature] = entry.split(',')
    const given = Buffer.from(signature ?? '', 'base64')
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)
  })
}

/** The first delivery `match` accepts, waited for. */
async function delivery(what, match) {
  const until = Date.now() + TIMEOUT
  for (;;) {
    const found = received.find(match)
    if (found) return found
    if (Date.now() > until) throw new Error(`the receiver did not get ${what}: ${JSON.stringify(received.map((r) => r.body))}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

async function call(path, token, init = {}) {
  const response = await fetch(`${BASE}${path}`, { ...init, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...init.headers } })
  const body = await response.json()
  assert.ok(response.ok, `${path}: ${response.status} ${JSON.stringify(body)}`)
  return body.body
}

test('a demo person registers a webhook on a phone, copies its secret, and gets the market change and a test event signed, shown in the delivery log', { timeout: 4 * TIMEOUT }, async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, permissions: ['clipboard-read', 'clipboard-write'] })
  const page = await context.newPage()
  await openPage(page, '/authentication/sign-in')
  await page.getByLabel('Email').fill(DEMO.email)
  await page.getByLabel('Password').fill(DEMO.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByTestId('drawer-button').waitFor({ timeout: TIMEOUT })
  await page.waitForURL((url) => !url.pathname.startsWith('/authentication'), { timeout: TIMEOUT })

  // Settings from the phone's menu, Webhooks from the row of settings links a phone shows.
  await page.getByTestId('drawer-button').click()
  await page.getByTestId('mobile-drawer').getByRole('link', { name: 'Settings' }).click()
  await page.getByTestId('settings-mobile-menu').getByRole('link', { name: 'Webhooks' }).click()
  await page.waitForURL(`${BASE}/profile/webhooks`)
  await page.getByTestId('webhook-create').waitFor({ timeout: TIMEOUT })

  // A private address (not the allowed receiver) is refused, the API's reason under the URL.
  await page.getByTestId('webhook-create').click()
  const dialog = page.getByTestId('webhook-dialog')
  await page.getByTestId('webhook-url-input').fill('http://10.1.2.3/hook')
  await page.getByTestId('webhook-submit').click()
  await dialog.getByText(/^url: /).waitFor({ timeout: TIMEOUT })

  const url = `http://127.0.0.1:${PORT}${PATH}`
  await page.getByTestId('webhook-url-input').fill(url)
  await page.getByTestId('webhook-submit').click()
  const secret = (await page.getByTestId('webhook-secret').innerText({ timeout: TIMEOUT })).trim()
  assert.match(secret, /^whsec_[A-Za-z0-9+/=]{20,}$/)
  await page.getByTestId('webhook-copy').click()
  await dialog.getByText('Copied').waitFor()
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret, 'the secret is on the clipboard')
  await page.getByTestId('webhook-done').click()
  const row = page.getByTestId('webhook').filter({ hasText: url })
  await row.waitFor({ timeout: TIMEOUT })
  assert.equal((await row.getByTestId('webhook-state').innerText()).trim(), 'Active')
  assert.ok(!(await page.content()).includes(secret), 'once closed, the secret is nowhere on the page')

  // A change the endpoint's topic (market) covers: a like of an NFT, through the API.
  const { accessToken } = await call('/api/auth/login', null, { method: 'POST', body: JSON.stringify(DEMO) })
  const nft = (await call('/api/nft/explore/?formOfSale=ALL&limit=1')).data[0]
  assert.ok(nft?._id, 'the demo has NFTs')
  await call(`/api/nft/like/${nft._id}`, accessToken, { method: 'PUT' })
  const change = await delivery(`the like of ${nft._id}`, (d) => JSON.parse(d.body).nfts?.some((n) => n.nftId === nft._id))
  assert.ok(signedWith(secret, change), `signed with the shown secret: ${JSON.stringify(change.headers)}`)
  const body = JSON.parse(change.body)
  assert.equal(change.headers['webhook-id'], `msg_${body.position}_${(await row.getAttribute('data-endpoint-id')).replaceAll('-', '')}`)
  assert.ok(!signedWith(`whsec_${Buffer.from('another secret!!').toString('base64')}`, change), 'another secret does not verify it')

  // The delivery log shows that position, acknowledged.
  await row.getByTestId('webhook-log').click()
  const log = page.getByTestId('webhook-log-dialog')
  const attempt = log.locator(`[data-testid="webhook-attempt"][data-position="${body.position}"]`).first()
  await attempt.waitFor({ timeout: TIMEOUT })
  assert.equal((await attempt.getByTestId('webhook-attempt-status').innerText()).trim(), '204')
  await log.getByRole('button', { name: 'Close' }).first().click()
  await log.waitFor({ state: 'detached' })

  // "Send test event": arrives signed, said in a toast and logged.
  await row.getByTestId('webhook-test').click()
  await page.getByText(/Test event delivered: HTTP 204/).waitFor({ timeout: TIMEOUT })
  const testEvent = await delivery('the test event', (d) => JSON.parse(d.body).test === true)
  assert.ok(signedWith(secret, testEvent), 'the test event is signed too')
  assert.match(testEvent.headers['webhook-id'], /^msg_test_/)

  // Deleted after a confirmation.
  await row.getByTestId('webhook-delete').click()
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click()
  await row.waitFor({ state: 'detached', timeout: TIMEOUT })
  // The like taken back, so that reruns on the same stack start alike.
  await call(`/api/nft/like/${nft._id}`, accessToken, { method: 'PUT' })
  await context.close()
})
