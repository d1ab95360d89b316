// End-to-end test of the content security policy (api/src/http/headers.rs) in Chromium, on the
// demo data that `marketplace dev` fills a fresh stack with:
//
//   E2E_BASE_URL=http://localhost:8080 node --test e2e/csp.e2e.mjs
//
// Every route of the UI (ui/src/app/router.tsx) is visited signed out, then signed in as a new
// person who links the Dev wallet (a SIWE signature in the page, its calls to /rpc); any
// `securitypolicyviolation` event or "Refused to ..." console message fails the test with the
// route and what was refused. The listener is shown to work first: an inline script injected
// into the page is refused and reported.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { BASE, api, chooseDevWallet, demoFinished, launchBrowser, openPage, signUp } from './support.mjs'

/** A dev wallet account no other suite and no demo person uses (demo: 10-17; suites: 1-9). */
const ACCOUNT = Number(process.env.E2E_CSP_ACCOUNT ?? 19)
const SETTLE_MS = 1500

let browser

/** Every route of ui/src/app/router.tsx, its parameters filled from the demo data. */
async function routes() {
  const nfts = (await api('/api/nft/explore/?formOfSale=ALL')).data
  const auction = nfts.find((n) => n.formOfSale === 'AUCTION') ?? nfts[0]
  // An NFT whose owner is a person (one of a deleted account's, privacy.e2e.mjs's, has none).
  const nft = nfts.find((n) => n.currentOwner?.userId) ?? nfts[0]
  const owner = nft.currentOwner?._id ?? nft.currentOwner?.userId ?? nft.currentOwner?.id
  assert.ok(owner, `an owner id in ${JSON.stringify(nft.currentOwner)}`)
  const collections = (await api('/api/collection/browse')).data
  const collection = collections[0]?._id ?? collections[0]?.id
  assert.ok(collection, `a collection id in ${JSON.stringify(collections[0])}`)
  return [
    '/',
    '/home',
    '/token-expiry',
    '/authentication/sign-up',
    '/authentication/sign-in',
    '/authentication/verify-email',
    '/authentication/email-verification/nobody%40example.com',
    '/activate/nobody%40example.com/not-a-token',
    '/passwordreset/not-a-token',
    '/profile/user-profile',
    '/profile/edit-profile',
    '/profile/kyc-pending',
    '/profile/kyc-approved',
    '/profile/language',
    '/profile/theme',
    '/profile/change-password',
    '/profile/change-email',
    '/profile/privacy',
    '/myprofile',
    `/myprofile/collection/${collection}`,
    `/user/${owner}`,
    `/user/${owner}/collection/${collection}`,
    '/explore',
    '/auction',
    `/explore/${nft._id}`,
    `/auction/${auction._id}`,
    `/nft/${nft._id}`,
    '/collections',
    '/stats',
    '/activity',
    `/collections/collection/${collection}`,
    `/collection/${collection}`,
    '/trending-sellers',
    `/trending-sellers/${owner}`,
    '/trending-creators',
    `/trending-creators/${owner}`,
    '/notifications',
    '/mybids',
    '/myoffers',
    '/favourites',
    '/create-asset',
    `/nft/update/${nft._id}`,
    '/privacy-policy',
    '/terms-and-condition',
    '/frequently-asked-questions',
    '/contact-us',
    '/no-such-page',
  ]
}

/** Collects the page's CSP violations (events and console messages) into `into`, tagged with the current route. */
function watch(context, into) {
  context.on('console', (message) => {
    if (/Refused to|Content[ -]Security[ -]Policy/i.test(message.text())) into.push({ url: message.location()?.url ?? '', what: message.text() })
  })
  return context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const seen = (window.__cspViolations ??= [])
      seen.push(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'} at ${event.sourceFile || location.pathname}:${event.lineNumber}`)
    })
  })
}

/** Opens every route in `page`, failing with the route and what was refused. */
async function visitAll(page, paths, consoleSeen, who) {
  const refused = []
  for (const path of paths) {
    consoleSeen.length = 0
    await openPage(page, path)
    // The live stream keeps a request open, so "network idle" never comes: the route's lazy
    // screen and its first data are in by then.
    await page.waitForTimeout(SETTLE_MS)
    const events = await page.evaluate(() => window.__cspViolations ?? [])
    for (const what of [...events, ...consoleSeen.map((c) => c.what)]) refused.push(`${who} ${path}: ${what}`)
  }
  assert.deepEqual(refused, [], `the policy refused something the UI does:\n${refused.join('\n')}`)
}

before(async () => {
  browser = await launchBrowser()
  await demoFinished()
})

after(async () => {
  await browser?.close()
})

test('the page carries the policy, and an injected inline script is refused and reported', async () => {
  const response = await fetch(`${BASE}/explore`)
  const policy = response.headers.get('content-security-policy') ?? ''
  assert.match(policy, /script-src 'self'/)
  assert.match(policy, /frame-ancestors 'none'/)
  const context = await browser.newContext()
  const seen = []
  await watch(context, seen)
  const page = await context.newPage()
  await openPage(page, '/explore')
  await page.evaluate(() => {
    const script = document.createElement('script')
    script.textContent = 'window.__injected = true'
    document.body.append(script)
  })
  await page.waitForFunction(() => (window.__cspViolations ?? []).length > 0, null, { timeout: 5000 })
  assert.equal(await page.evaluate(() => window.__injected), undefined, 'the inline script did not run')
  assert.match((await page.evaluate(() => window.__cspViolations))[0], /^script-src(-elem)? refused inline/)
  // Chakra's emotion writes its styles into <style> elements at run time: why style-src needs
  // 'unsafe-inline' (docs/security.md).
  assert.ok((await page.locator('style[data-emotion]').count()) > 0, 'emotion writes <style> elements')
  await context.close()
})

test('another site cannot frame the page', async () => {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.setContent(`<iframe id="market" src="${BASE}/explore"></iframe>`)
  // Long enough for the app to render were it allowed to (the first test's page renders in less).
  const rendered = await page
    .waitForFunction(() => {
      try {
        return (document.querySelector('#market').contentDocument?.querySelector('#root')?.childElementCount ?? 0) > 0
      } catch {
        return false // a cross-origin frame: unreadable, as an error page is
      }
    }, null, { timeout: 8000 })
    .then(() => true, () => false)
  const framed = page.frames().find((frame) => frame.url().startsWith(BASE))
  const inFrame = framed ? await framed.evaluate(() => document.querySelector('#root')?.childElementCount ?? 0).catch(() => 0) : 0
  assert.equal(rendered || inFrame > 0, false, 'the app did not load inside another page')
  await context.close()
})

test('every route, signed out and signed in with the Dev wallet linked, runs without a CSP violation', async () => {
  const paths = await routes()
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const seen = []
  await watch(context, seen)
  const page = await context.newPage()
  await visitAll(page, paths, seen, 'signed out')
  await context.close()

  // Signed in: a new person who links the Dev wallet (the SIWE signature runs in the page).
  const stamp = Date.now()
  const user = { account: ACCOUNT, email: `csp${stamp}@example.com`, fullName: 'Cora Policy', username: `csp${stamp}`, password: 'csp-secret-123' }
  const signedIn = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const seenSignedIn = []
  await watch(signedIn, seenSignedIn)
  await signedIn.addInitScript((account) => localStorage.setItem('devWallet.accountIndex', String(account)), user.account)
  const own = await signedIn.newPage()
  // signUpAndLink's steps, in the watched context.
  await signUp(own, user)
  await own.getByTestId('avatar-menu').waitFor()
  await own.getByTestId('connect-wallet').click()
  await chooseDevWallet(own)
  // The Dev wallet reads the balance through /rpc under the policy.
  await own.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="wallet-menu"] [data-testid="wallet-balance"]')?.textContent ?? ''), null, { timeout: 30000 })
  const linking = await own.evaluate(() => window.__cspViolations ?? [])
  assert.deepEqual([...linking, ...seenSignedIn.map((c) => c.what)], [], 'signing up and linking the Dev wallet ran under the policy')
  await visitAll(own, paths, seenSignedIn, 'signed in')
  await signedIn.close()
})
