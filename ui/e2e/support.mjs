// What the end-to-end suites share: the server under test, the browser, opening a page past the
// startup loader, reading a verification code from the dev mailbox, signing up through the form
// and linking the dev wallet.
import { chromium } from 'playwright-core'

export const BASE = process.env.E2E_BASE_URL ?? 'http://localhost:8080'

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
