// Temporary (not committed): screenshots of create asset, update NFT and my bids against sample API answers.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = '/tmp/uicr-shots'
const PORT = 18141
const args = process.argv.slice(2)
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',')
const themes = args.find((a) => a.startsWith('--themes='))?.slice(9).split(',') ?? ['dark', 'light']
const widths = (args.find((a) => a.startsWith('--widths='))?.slice(9).split(',') ?? ['390', '1400']).map(Number)
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const art = (a, b) =>
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="400" height="400" fill="url(#g)"/><circle cx="200" cy="200" r="110" fill="white" fill-opacity="0.18"/></svg>`)
const person = (id, username, fullName) => ({ userId: id, username, fullName, avatar: '' })
const profile = { userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'Thomas Anderson', mobileNumber: '1', avatar: '', bio: 'x', coverImage: '', authProvider: 'EMAIL', connectedWallet: [{ walletProvider: 'Other', walletAddress: ADDRESS }] }
const nft = (i, title, formOfSale, a, b) => ({
  _id: `80001-${i}`, nftTokenId: String(i), file: art(a, b), title, description: 'Generative city lights at night.', nftCategory: 'art', metadataUrl: '', fixedPrice: formOfSale === 'NOT_FOR_SALE' ? '0' : '2.5', formOfSale,
  contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3', contractType: 'ERC721', coinName: 'MATIC', totalLikes: i * 3, isLiked: i % 2 === 0, isBookmarked: false,
  createdAt: new Date(Date.now() - i * 7200_000).toISOString(), updatedAt: new Date().toISOString(),
  currentAuction: formOfSale === 'AUCTION' ? { auctionId: String(i), auctionStartPrice: '1', auctionBuyNowPrice: '2.5', auctionHighestBid: '1.2', auctionEndHours: new Date(Date.now() + 30 * 3600_000).toISOString(), auctionEnded: false } : null,
  highestBid: '1.2', royalty: [], properties: [], transactionHash: '0x',
  creator: { ...person('u2', 'artemis', 'Artemis Vale'), address: '0x2' }, currentOwner: { ...person(i === 7 ? 'u1' : 'u3', i === 7 ? 'neo' : 'collector99', 'Jo Kim'), ownerAddress: i === 7 ? ADDRESS.toLowerCase() : '0x3' },
})
const bids = [
  { id: 3, nftData: nft(3, 'Neon Dreams #12', 'AUCTION', '#7c3aed', '#22d3ee'), bidAmount: '1.2', status: 'BID', transactionHash: '0x' + '3'.repeat(64) },
  { id: 2, nftData: nft(2, 'Sunset Protocol', 'NOT_FOR_SALE', '#ec4899', '#f59e0b'), bidAmount: '5', status: 'ALLOTED', transactionHash: '0x' + '2'.repeat(64) },
  { id: 1, nftData: nft(1, 'Quiet Forest', 'AUCTION', '#10b981', '#3b82f6'), bidAmount: '0.5', status: 'REFUNDED', transactionHash: '0x' + '1'.repeat(64) },
]
const api = {
  '/api/config': { chainId: 80001, chainName: 'Matic Testnet', rpcUrl: 'http://127.0.0.1:1', contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3', deploymentBlock: 0, explorerUrl: 'https://explorer.example', ipfsGateway: '/ipfs/', googleClientId: '', walletConnectProjectId: '', devWallet: true, devMnemonic: 'test test test test test test test test test test test junk' },
  '/api/account/myprofile': profile,
  '/api/misc/category': [{ id: 'art', categoryName: 'Art' }, { id: 'music', categoryName: 'Music' }, { id: 'photo', categoryName: 'Photography' }],
  '/api/nft/ipfsupload': { metaData: 'ipfs://bafkreimeta' },
  '/api/nft/mybids': { data: bids, currentPage: 1, lastPage: true, totalItems: 3 },
  '/api/nft/detail/80001-7': nft(7, 'Midnight Tram', 'NOT_FOR_SALE', '#0ea5e9', '#a855f7'),
}
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

async function connectDevWallet(page) {
  const dialog = page.getByTestId('wallet-dialog')
  await dialog.waitFor({ timeout: 5000 })
  await page.getByTestId('wallet-option-devWallet').click()
  await page.waitForTimeout(400)
  const account = page.getByTestId('dev-wallet-account')
  if (await account.count()) await account.first().click().catch(() => {})
  await page.waitForTimeout(1200)
}
async function toStepOne(page) {
  await page.getByTestId('asset-file-input').setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: PNG })
  await page.getByLabel('Name').fill('Midnight Tram')
  await page.getByLabel('Description').fill('A tram crossing the city at night, in neon.')
  await page.getByLabel('Category').selectOption('art')
  await page.getByTestId('create-next').click()
  await page.getByRole('heading', { name: 'Add NFT' }).waitFor()
}

const screens = [
  ['create-step0-errors', '/create-asset', async (page) => {
    await page.keyboard.press('Escape')
    await page.waitForTimeout(300)
    await page.getByTestId('create-next').click()
  }],
  ['create-properties', '/create-asset', async (page) => {
    await page.keyboard.press('Escape')
    await page.getByTestId('asset-file-input').setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: PNG })
    await page.getByTestId('open-properties').click()
    const d = page.getByTestId('properties-dialog')
    await d.getByLabel('Property 1', { exact: true }).fill('Color')
    await d.getByRole('button', { name: 'Add property' }).click()
    await d.getByLabel('Property 2', { exact: true }).fill('Mood')
    await d.getByRole('button', { name: 'Save' }).click()
  }],
  ['create-step1-errors', '/create-asset', async (page) => {
    await connectDevWallet(page)
    await toStepOne(page)
    await page.getByTestId('sale-form-AUCTION').click()
    await page.getByTestId('sale-basePrice').fill('2')
    await page.getByTestId('sale-buyPrice').fill('1')
    await page.getByTestId('create-submit').click()
  }],
  ['create-royalty', '/create-asset', async (page) => {
    await connectDevWallet(page)
    await toStepOne(page)
    await page.getByTestId('open-royalty').click()
    const d = page.getByTestId('royalty-dialog')
    await d.getByLabel('Wallet address 1', { exact: true }).fill('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    await d.getByLabel('Percentage 1', { exact: true }).fill('60')
    await d.getByRole('button', { name: 'Add royalty' }).click()
    await d.getByLabel('Wallet address 2', { exact: true }).fill('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    await d.getByLabel('Percentage 2', { exact: true }).fill('10')
    await d.getByRole('button', { name: 'Save' }).click()
  }],
  ['update', '/nft/update/80001-7', async (page) => {
    await page.getByTestId('sale-form-AUCTION').click()
    await page.getByTestId('sale-basePrice').fill('1.5')
    await page.getByTestId('sale-buyPrice').fill('4')
    const d = new Date(Date.now() + 50 * 3600_000)
    const pad = (n) => String(n).padStart(2, '0')
    await page.getByTestId('sale-auctionEnd').fill(`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`)
  }],
  ['update-errors', '/nft/update/80001-7', async (page) => {
    await page.getByTestId('sale-price').fill('-1')
    await page.getByTestId('update-submit').click()
  }],
  ['mybids', '/mybids'],
  ['mybids-empty', '/mybids', null, { '/api/nft/mybids': { data: [], currentPage: 1, lastPage: true, totalItems: 0 } }],
].filter(([n]) => !only || only.includes(n))

const server = spawn(join(root, 'node_modules', '.bin', 'vite'), ['preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'], { cwd: root, stdio: 'ignore' })
let browser
try {
  for (let i = 0; i < 60; i++) { try { if ((await fetch(`http://127.0.0.1:${PORT}/`)).ok) break } catch {} await new Promise((r) => setTimeout(r, 250)) }
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
  for (const theme of themes) for (const width of widths) for (const [name, path, action, overrides] of screens) {
    const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 }, ...(width < 600 ? { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148', isMobile: true, hasTouch: true } : {}) })
    await context.addInitScript(([t, p]) => { localStorage.setItem('theme', t); document.cookie = 'secret=shot; path=/'; localStorage.setItem('userProfile', JSON.stringify(p)) }, [theme, profile])
    const page = await context.newPage()
    page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`))
    await page.route('**/api/**', (route) => {
      const url = new URL(route.request().url())
      const body = overrides?.[url.pathname] ?? api[url.pathname]
      if (url.pathname === '/api/account/walletnonce') return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ statuscode: 200, body: { nonce: 'abc12345' }, message: '' }) })
      if (url.pathname === '/api/account/connectwallet') return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ statuscode: 200, body: profile, message: 'Connected' }) })
      if (body === undefined) return route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ statuscode: 404, body: null, message: 'Not found' }) })
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ statuscode: 200, body, message: '' }) })
    })
    await page.goto(`http://127.0.0.1:${PORT}${path}`)
    await page.waitForSelector('[data-testid="startup-loader"]', { state: 'detached', timeout: 15000 })
    await page.waitForTimeout(800)
    try { if (action) await action(page, width) } catch (e) { console.error(`${name}: ${e.message.split('\n')[0]}`) }
    await page.waitForTimeout(800)
    const file = join(out, `${name}-${theme}-${width}.png`)
    await page.screenshot({ path: file, fullPage: true })
    console.log(file)
    await context.close()
  }
} finally {
  await browser?.close()
  server.kill()
}
