// Creates an NFT through /create-asset in a playwright-core page, as a user would: for the
// end-to-end tests that need NFTs (ui/e2e/trading.e2e.mjs). The page must be signed in with a
// linked wallet connected on chain 80001 (the dev wallet of the local stack).
//
//   import { createNft } from './create-asset.mjs'
//   await createNft(page, { base: BASE, title: 'Pink cat', sale: { formOfSale: 'FIXEDPRICE', price: '1.5' } })
//
// The fields it uses (stable for other tests too):
//   step 0: data-testid asset-file-input (the hidden file input), labels Name, Description,
//           Category (a native select: option label or id), data-testid open-properties, then in
//           data-testid properties-dialog the labels `Property N` / `Value N`, buttons
//           'Add property' and 'Save'; data-testid create-next.
//   step 1: data-testid sale-form-FIXEDPRICE / sale-form-AUCTION / sale-form-NOT_FOR_SALE,
//           sale-price, sale-basePrice, sale-buyPrice, sale-auctionEnd (datetime-local, local
//           time), open-royalty, then in data-testid royalty-dialog the labels
//           `Wallet address N` / `Percentage N`, buttons 'Add royalty' and 'Save';
//           data-testid create-submit. Headings 'Create Asset' (step 0) and 'Add NFT' (step 1).

// A 1x1 PNG.
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

/** A Date as a `datetime-local` value (local time, to the minute). */
export function localDateTime(date) {
  const pad = (n) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/**
 * Fills both steps and submits; resolves once the app reached /myprofile, with the token URI
 * the upload answered (read from the request). Rejects with the snackbar's text when the page
 * shows an error instead.
 *
 * @param {import('playwright-core').Page} page
 * @param {{
 *   base: string,
 *   title: string,
 *   description?: string,
 *   category?: string,               // option label or id; the first category when omitted
 *   image?: { name: string, mimeType: string, buffer: Buffer },
 *   properties?: [string, string][],
 *   sale: { formOfSale: 'FIXEDPRICE' | 'AUCTION' | 'NOT_FOR_SALE', price?: string, basePrice?: string, buyPrice?: string, auctionEnd?: Date },
 *   royalties?: [string, string][],  // [address, percentage]; one row is needed unless NOT_FOR_SALE
 *   timeoutMs?: number,
 * }} nft
 */
export async function createNft(page, nft) {
  const timeout = nft.timeoutMs ?? 60000
  await page.goto(`${nft.base}/create-asset`)
  await page.getByRole('heading', { name: 'Create Asset' }).waitFor({ timeout })

  await page.getByTestId('asset-file-input').setInputFiles(nft.image ?? { name: 'nft.png', mimeType: 'image/png', buffer: TINY_PNG })
  await page.getByLabel('Name').fill(nft.title)
  await page.getByLabel('Description').fill(nft.description ?? `${nft.title}, created by the end-to-end test.`)
  const select = page.getByLabel('Category')
  await select.locator('option:nth-child(2)').waitFor({ state: 'attached', timeout })
  if (nft.category) await select.selectOption(nft.category).catch(() => select.selectOption({ label: nft.category }))
  else await select.selectOption({ index: 1 })
  if (nft.properties?.length) {
    await page.getByTestId('open-properties').click()
    const dialog = page.getByTestId('properties-dialog')
    for (const [index, [key, value]] of nft.properties.entries()) {
      if (index > 0) await dialog.getByRole('button', { name: 'Add property' }).click()
      await dialog.getByLabel(`Property ${index + 1}`, { exact: true }).fill(key)
      await dialog.getByLabel(`Value ${index + 1}`, { exact: true }).fill(value)
    }
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached', timeout })
  }
  const upload = page.waitForResponse((r) => r.url().includes('/api/nft/ipfsupload'), { timeout })
  await page.getByTestId('create-next').click()
  const tokenUri = (await (await upload).json())?.body?.metaData
  await page.getByRole('heading', { name: 'Add NFT' }).waitFor({ timeout })

  const { sale } = nft
  await page.getByTestId(`sale-form-${sale.formOfSale}`).click()
  if (sale.formOfSale === 'FIXEDPRICE') await page.getByTestId('sale-price').fill(sale.price)
  if (sale.formOfSale === 'AUCTION') {
    await page.getByTestId('sale-basePrice').fill(sale.basePrice)
    await page.getByTestId('sale-buyPrice').fill(sale.buyPrice)
    await page.getByTestId('sale-auctionEnd').fill(localDateTime(sale.auctionEnd ?? new Date(Date.now() + 24 * 3600 * 1000)))
  }
  if (nft.royalties?.length) {
    await page.getByTestId('open-royalty').click()
    const dialog = page.getByTestId('royalty-dialog')
    for (const [index, [address, percentage]] of nft.royalties.entries()) {
      if (index > 0) await dialog.getByRole('button', { name: 'Add royalty' }).click()
      await dialog.getByLabel(`Wallet address ${index + 1}`, { exact: true }).fill(address)
      await dialog.getByLabel(`Percentage ${index + 1}`, { exact: true }).fill(percentage)
    }
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached', timeout })
  }

  await page.getByTestId('create-submit').click()
  const outcome = await Promise.race([
    page.waitForURL((url) => url.pathname === '/myprofile', { timeout }).then(() => 'ok'),
    page
      .locator('[data-testid="snackbar"][data-type="error"], [data-testid="snackbar"]:has([data-type="error"])')
      .first()
      .waitFor({ timeout })
      .then(async () => `error: ${await page.getByTestId('snackbar').first().innerText()}`),
  ])
  if (outcome !== 'ok') throw new Error(`create asset failed (${outcome})`)
  return { tokenUri }
}
