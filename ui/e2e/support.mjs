// What the end-to-end suites share: the server under test, opening a page past the startup
// loader, and reading a verification code from the dev mailbox.

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
