// End-to-end test of moderation (issue 26), against the real stack (`marketplace dev`, its demo
// data: ada_lumen is an admin there):
//
//   E2E_BASE_URL=http://127.0.0.1:8080 node --test e2e/moderation.e2e.mjs
//
// A demo person reports another's NFT from its page; the admin makes a moderator through the API
// (kofi_waves, if he is not one already); the moderator opens /moderation from the avatar menu,
// sees the report and who filed it, and hides the NFT with a reason. A visitor no longer finds it
// in explore, and its page says it was removed, and why. Its owner sees the reason on its page and
// appeals; the appeal is in the queue; the moderator restores it and it is back in explore, its
// page open to all. The NFT is chosen by query (listed, not hidden, not awaiting a decision, owned
// by none of the people acting), so leftovers of other suites or earlier runs do not matter.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { BASE, DEMO_PASSWORD, demoFinished, launchBrowser, openPage } from './support.mjs'

const TIMEOUT = 60000
const ADMIN = 'ada_lumen'
const MODERATOR = 'kofi_waves'
const REPORTER = 'mira_frames'
/** The demo's people: the owner signs in with the demo password (other suites' people have their own). */
const DEMO_PEOPLE = new Set(['ada_lumen', 'kofi_waves', 'mira_frames', 'pixel_olek', 'lucia_sprint', 'ravi_vault', 'noor_grid', 'tomas_tiles'])
const stamp = Date.now().toString(36)
const REPORT_TEXT = `Copied from my gallery (${stamp})`
const HIDE_REASON = `Reported as a copy; the reporter showed the original (${stamp})`
const APPEAL_TEXT = `I made it myself; the layered file is on my site (${stamp})`
const RESTORE_REASON = `The owner showed the layered original (${stamp})`

let browser
let adminToken

/** Signs a demo person in through the API: their access token. */
async function token(username) {
  const response = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${username}@demo.example.com`, password: DEMO_PASSWORD }),
  })
  assert.equal(response.status, 200, `${username} signs in`)
  return (await response.json()).body.accessToken
}

/** A call of the API as the holder of `bearer`: status and body. */
async function call(path, bearer, init = {}) {
  const headers = { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) }
  const response = await fetch(`${BASE}${path}`, { ...init, headers })
  return { status: response.status, body: (await response.json().catch(() => ({}))).body }
}

/** The NFT ids explore lists for a visitor (every sale type), searched by `title`. */
async function exploreIds(title) {
  const { body } = await call(`/api/nft/explore/?formOfSale=ALL&limit=100&search=${encodeURIComponent(title)}`)
  return body.data.map((n) => n._id)
}

/** A browser page signed in as a demo person through the sign-in form. */
async function signedIn(username, viewport = { width: 1400, height: 900 }) {
  const page = await (await browser.newContext({ viewport })).newPage()
  await openPage(page, '/authentication/sign-in')
  await page.getByLabel('Email').fill(`${username}@demo.example.com`)
  await page.getByLabel('Password').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByTestId('avatar-menu').waitFor({ timeout: TIMEOUT })
  return page
}

before(async () => {
  await demoFinished()
  browser = await launchBrowser()
  adminToken = await token(ADMIN)
  const roles = await call('/api/moderation/roles', adminToken)
  assert.ok(
    roles.body?.roles?.includes('admin'),
    `${ADMIN} must be an admin (the demo makes her one; on an older stack: marketplace --data-dir … admin grant admin ${ADMIN}@demo.example.com)`,
  )
})

after(async () => {
  await browser?.close()
})

test('a report, a hiding that leaves explore, the owner appeals and the moderator restores', { timeout: 12 * TIMEOUT }, async () => {
  // The admin makes the moderator, through the API (already one: 409).
  const granted = await call('/api/staff', adminToken, { method: 'POST', body: JSON.stringify({ username: MODERATOR, role: 'moderator' }) })
  assert.ok([200, 409].includes(granted.status), `grant: ${granted.status}`)
  const moderatorToken = await token(MODERATOR)
  assert.ok((await call('/api/moderation/roles', moderatorToken)).body.roles.includes('moderator'))

  // A demo person's NFT none of the people acting owns, listed, not hidden and not awaiting a decision.
  const waiting = new Set((await call('/api/moderation/queue?limit=100', moderatorToken)).body.items.map((i) => `${i.targetKind}:${i.targetId}`))
  const listed = (await call('/api/nft/explore/?formOfSale=FIXEDPRICE&limit=100')).body.data
  const acting = new Set([ADMIN, MODERATOR, REPORTER])
  let target
  for (const nft of listed) {
    const ownerName = nft.currentOwner?.username
    if (!DEMO_PEOPLE.has(ownerName) || acting.has(ownerName) || acting.has(nft.creator?.username) || waiting.has(`nft:${nft._id}`)) continue
    if ((await call(`/api/moderation/nft/${nft._id}`)).body.hidden) continue
    target = nft
    break
  }
  assert.ok(target, 'a listed NFT of someone else to report')
  const owner = target.currentOwner.username
  assert.ok((await exploreIds(target.title)).includes(target._id), 'listed in explore before')

  // The reporter reports it from its page: the ⋯ menu, a reason, a few words.
  const reporter = await signedIn(REPORTER)
  await openPage(reporter, `/explore/${target._id}`)
  await reporter.getByTestId('detail-title').waitFor({ timeout: TIMEOUT })
  await reporter.getByTestId('target-menu').click()
  await reporter.getByTestId('report-item').click()
  const dialog = reporter.getByTestId('report-dialog')
  await dialog.waitFor()
  await dialog.getByText('Fake collection or possible scam').click()
  await dialog.getByTestId('report-text').fill(REPORT_TEXT)
  await dialog.getByTestId('report-submit').click()
  await reporter.getByTestId('report-done').waitFor({ timeout: TIMEOUT })
  // A second report of it while the first is open: the dialog says so.
  await reporter.getByRole('button', { name: 'Close' }).first().click()
  await reporter.getByTestId('target-menu').click()
  await reporter.getByTestId('report-item').click()
  await dialog.getByText('Spam', { exact: true }).click()
  await dialog.getByTestId('report-submit').click()
  await dialog.getByText('You already reported this; the moderators will look at it.').waitFor({ timeout: TIMEOUT })
  await reporter.context().close()

  // The moderator opens the queue from the avatar menu: the report, its reporter; hides it.
  const moderator = await signedIn(MODERATOR)
  await moderator.getByTestId('avatar-menu').click()
  await moderator.getByTestId('menu-moderation').click()
  const item = moderator.locator(`[data-testid="queue-item"][data-target="nft:${target._id}"]`)
  await item.waitFor({ timeout: TIMEOUT })
  const report = item.getByTestId('open-report').filter({ hasText: REPORT_TEXT })
  assert.match(await report.innerText(), new RegExp(`by @${REPORTER}`))
  await item.getByTestId('action-hide').click()
  const reason = moderator.getByTestId('reason-dialog')
  await reason.getByTestId('reason-text').fill(HIDE_REASON)
  await reason.getByTestId('reason-submit').click()
  await item.waitFor({ state: 'detached', timeout: TIMEOUT })

  // A visitor: out of explore, and its page says it was removed, and why.
  assert.ok(!(await exploreIds(target.title)).includes(target._id), 'out of explore once hidden')
  const visitor = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage()
  await openPage(visitor, `/explore?type=all&search=${encodeURIComponent(target.title)}`)
  await visitor.waitForTimeout(1500)
  assert.equal(await visitor.locator(`a[href="/explore/${target._id}"]`).count(), 0, 'no card of it in explore')
  await openPage(visitor, `/explore/${target._id}`)
  const removed = visitor.getByTestId('nft-removed')
  await removed.waitFor({ timeout: TIMEOUT })
  assert.match(await removed.innerText(), new RegExp(HIDE_REASON.replace(/[()]/g, '\\$&')))
  assert.equal(await visitor.getByTestId('removed-transparency').getAttribute('href'), '/transparency')

  // Its owner sees why on its page and appeals, once.
  const ownerPage = await signedIn(owner)
  await openPage(ownerPage, `/nft/${target._id}`)
  const banner = ownerPage.getByTestId('hidden-banner')
  await banner.waitFor({ timeout: TIMEOUT })
  assert.match(await banner.innerText(), /Hidden by the moderators/)
  assert.ok((await banner.innerText()).includes(HIDE_REASON))
  // Its image is withheld from others, not from its owner (the page's session cookie asks for it).
  const artwork = ownerPage.getByTestId('detail-image').locator('img')
  await ownerPage.waitForFunction((img) => img.complete && img.naturalWidth > 0, await artwork.elementHandle(), { timeout: TIMEOUT })
  await banner.getByTestId('appeal-button').click()
  const appeal = ownerPage.getByTestId('reason-dialog')
  await appeal.getByTestId('reason-text').fill(APPEAL_TEXT)
  await appeal.getByTestId('reason-submit').click()
  await ownerPage.getByTestId('appeal-pending').waitFor({ timeout: TIMEOUT })
  assert.equal(await ownerPage.getByTestId('appeal-button').count(), 0, 'one appeal per hiding')

  // The appeal is in the queue; the moderator restores the NFT.
  await openPage(moderator, '/moderation')
  await item.waitFor({ timeout: TIMEOUT })
  assert.ok((await item.getByTestId('queue-appeal').innerText()).includes(APPEAL_TEXT))
  await item.getByTestId('action-restore').click()
  await reason.getByTestId('reason-text').fill(RESTORE_REASON)
  await reason.getByTestId('reason-submit').click()
  await item.waitFor({ state: 'detached', timeout: TIMEOUT })

  // Back in explore and on its page for everyone; the owner's banner is gone.
  assert.ok((await exploreIds(target.title)).includes(target._id), 'back in explore once restored')
  await openPage(visitor, `/explore?type=all&search=${encodeURIComponent(target.title)}`)
  await visitor.locator(`a[href="/explore/${target._id}"]`).first().waitFor({ timeout: TIMEOUT })
  await openPage(visitor, `/explore/${target._id}`)
  await visitor.getByTestId('detail-title').waitFor({ timeout: TIMEOUT })
  await openPage(ownerPage, `/nft/${target._id}`)
  await ownerPage.getByTestId('detail-title').waitFor({ timeout: TIMEOUT })
  assert.equal(await ownerPage.getByTestId('hidden-banner').count(), 0)

  // The public record lists both decisions with their reasons, never the reporter.
  await openPage(visitor, '/transparency')
  const decisions = visitor.getByTestId('transparency-decisions')
  await decisions.waitFor({ timeout: TIMEOUT })
  const record = await decisions.innerText()
  assert.ok(record.includes(HIDE_REASON) && record.includes(RESTORE_REASON), 'both decisions on the record')
  assert.ok(!record.includes(REPORTER), 'never the reporter')
  for (const page of [visitor, ownerPage, moderator]) await page.context().close()
})
