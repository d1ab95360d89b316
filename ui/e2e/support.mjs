// What the end-to-end suites share: the server under test, the browser, opening a page past the
// startup loader, reading a verification code from the dev mailbox, signing up through the form
// and linking the dev wallet, reading the API and waiting for the demo data.
import assert from 'node:assert/strict'
import { chromium } from 'playwright-core'

export const BASE = process.env.E2E_BASE_URL ?? 'http://localhost:8080'

/** What the demo (`marketplace dev`, in the background) mints and sells (api/src/demo/plan.rs). */
export const DEMO_NFTS = 64
export const DEMO_SALES = 8
const DEMO_TIMEOUT_MS = Number(process.env.E2E_DEMO_TIMEOUT_MS ?? 1200000)

/** The body of a public GET of the API (its status checked). */
export async function api(path) {
  const response = await fetch(`${BASE}${path}`)
  assert.ok(response.ok, `${path}: ${response.status}`)
  return (await response.json()).body
}

/**
 * Waits until the demo has minted and sold what it plans, and `ready(stats)` (when given) holds:
 * the market's statistics.
 */
export async function demoFinished(ready = async () => true) {
  const until = Date.now() + DEMO_TIMEOUT_MS
  for (;;) {
    const stats = await api('/api/getmarketplacestatistics').catch(() => null)
    if (stats?.totalNftMinted >= DEMO_NFTS && stats?.totalNftSold >= DEMO_SALES && (await ready(stats).catch(() => false))) return stats
    if (Date.now() > until) throw new Error(`the demo data did not appear within ${DEMO_TIMEOUT_MS} ms: ${JSON.stringify(stats)}`)
    await new Promise((r) => setTimeout(r, 2000))
  }
}

/** Opens `path` in `page` and waits until the startup loader is gone. */
export async function openPage(page, path) {
  await page.goto(`${BASE}${path}`)
  await page.waitForSelector('[data-testid="startup-loader"]', { state: 'detached', timeout: 20000 })
}

/** The newest verification code mailed to `email`, from the dev mailbox (GET /api/dev/mailbox?to=, newest first). */
export async function latestCode(email, timeoutMs = 15000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    const response = await fetch(`${BASE}/api/dev/mailbox?to=${encodeURIComponent(email)}`)
    if (response.ok) {
      const { body } = await response.json()
      const code = body?.find((mail) => mail.code)?.code ?? body?.[0]?.text?.match(/\b(\d{4,8})\b/)?.[1]
      if (code) return code
    }
    await new Promise((r) => setTimeout(r, 300))
  }
  throw new Error(`no verification code for ${email} in the dev mailbox`)
}

/** Debian's Chromium, headless, without the background traffic that slows a loaded machine. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}

/**
 * Signs `user` ({email, fullName, username, password}) up through /authentication/sign-up and
 * submits the code mailed to them; the caller waits for whatever it expects next.
 */
export async function signUp(page, user) {
  await openPage(page, '/authentication/sign-up')
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Full name').fill(user.fullName)
  await page.getByLabel('Username').fill(user.username)
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await page.getByLabel('Username').blur()
  await page.getByText('Username is Available').waitFor()
  await page.getByLabel('Confirm password').fill(user.password)
  await page.getByRole('button', { name: 'Sign up' }).click()
  await page.waitForURL(/\/authentication\/email-verification\//)
  await page.getByLabel('Verification Code').fill(await latestCode(user.email))
  await page.getByRole('button', { name: 'Submit' }).click()
}

/** In the open wallet dialog, picks the dev wallet and waits until it is linked ('Connected!'). */
export async function chooseDevWallet(page) {
  await page.getByTestId('wallet-option-devWallet').click()
  await page.getByText('Connected!').waitFor()
}

/** The first snackbar holding `expected` (text or RegExp); fails with the app's own words when another shows instead. */
export async function snackbar(page, expected, timeoutMs = 90000) {
  const bar = page.getByTestId('snackbar').filter({ hasText: expected })
  const winner = await Promise.race([bar.first().waitFor({ timeout: timeoutMs }).then(() => 'ok'), page.waitForTimeout(timeoutMs).then(() => 'timeout')])
  if (winner !== 'ok') throw new Error(`expected '${expected}', saw '${await page.getByTestId('snackbar').first().innerText().catch(() => 'nothing')}'`)
}

/** The id of the NFT titled `title`, from the browse API (any sale type). */
export async function nftIdByTitle(title) {
  const response = await fetch(`${BASE}/api/nft/explore/?formOfSale=ALL&search=${encodeURIComponent(title)}`)
  const nft = (await response.json()).body.data.find((n) => n.title === title)
  if (!nft) throw new Error(`${title} is not listed`)
  return nft._id
}

/** GET /api/nft/detail/{id}. */
export async function nftDetail(id) {
  return (await (await fetch(`${BASE}/api/nft/detail/${id}`)).json()).body
}

/** The address of dev wallet account `index` (the local chain's test mnemonic, from /api/config). */
export async function devAddress(index) {
  const { mnemonicToAccount } = await import('viem/accounts')
  const { body } = await (await fetch(`${BASE}/api/config`)).json()
  return mnemonicToAccount(body.devMnemonic, { addressIndex: index }).address
}

/**
 * A browser context for `user` ({account, email, fullName, username, password}) that picks dev
 * wallet account `user.account`: signs up through the form and links the wallet. Sets `user.page`.
 */
export async function signUpAndLink(browser, user, viewport = { width: 1400, height: 900 }) {
  const context = await browser.newContext({ viewport })
  await context.addInitScript((account) => localStorage.setItem('devWallet.accountIndex', String(account)), user.account)
  const page = await context.newPage()
  await signUp(page, user)
  await page.getByTestId('avatar-menu').waitFor()
  await page.getByTestId('connect-wallet').click()
  await chooseDevWallet(page)
  user.page = page
  return page
}

/** Every demo person's password (api/src/demo/plan.rs). */
export const DEMO_PASSWORD = 'demo-market-2024'

/**
 * A browser page of demo person `username`, signed in, with the dev wallet account linked to them
 * connected. It waits for 'Connected!': the demo links wallets as MetaMask, so the first dev-wallet
 * connection signs a new link, and a page left before its answer stays without a wallet.
 */
export async function signInWithOwnDevWallet(browser, username, viewport = { width: 1400, height: 900 }) {
  const page = await (await browser.newContext({ viewport })).newPage()
  await openPage(page, '/authentication/sign-in')
  await page.getByLabel('Email').fill(`${username}@demo.example.com`)
  await page.getByLabel('Password').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByTestId('avatar-menu').waitFor({ timeout: 90000 })
  await page.getByTestId('connect-wallet').click()
  const accounts = page.getByTestId('dev-wallet-account')
  const own = accounts.locator('option', { hasText: '· yours' })
  await own.waitFor({ state: 'attached', timeout: 90000 })
  await accounts.selectOption(await own.getAttribute('value'))
  await page.getByTestId('wallet-option-devWallet').click()
  await page.getByText('Connected!').first().waitFor({ timeout: 90000 })
  await page.getByTestId('wallet-menu').first().waitFor({ timeout: 90000 })
  return page
}
