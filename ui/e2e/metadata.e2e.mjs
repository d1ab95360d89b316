// End-to-end test of the metadata of tokens minted elsewhere, against the real stack
// (`marketplace dev`: API + UI, local chain, dev wallet's mnemonic):
//
//   E2E_BASE_URL=http://127.0.0.1:8080 node --test e2e/metadata.e2e.mjs
//
// A script (viem, signing locally with dev wallet account 9, which no other suite links; sent
// as a raw transaction through the server's `/rpc` proxy) mints a token straight on the
// contract with the `ipfs://` URI of metadata put in the file store by the API's IPFS upload
// (signed in as the demo person noor_grid, who only uploads: no NFT of theirs changes). No
// record call follows, as for any token minted without this UI: the server reads the token URI
// itself. The NFT page shows the metadata's state, "Refresh metadata" reads it again for a
// visitor who is not signed in, and the page ends with the metadata's title, image and
// properties. A second token's URI points at a host of the minter's (a loopback server here):
// the visitor's browser never asks it, the server's answer stands for the check.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { after, before, test } from 'node:test'
import { createWalletClient, createPublicClient, http, parseAbi, parseEventLogs } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { BASE, launchBrowser, nftDetail, openPage as open, snackbar } from './support.mjs'

const TIMEOUT = 90000
const stamp = Date.now().toString(36)
const TITLE = `Script Heron ${stamp}`
const UPLOADER = { email: 'noor_grid@demo.example.com', password: 'demo-market-2024' }
const MINTER_ACCOUNT = 9
const abi = parseAbi([
  'function mint(string uri, uint8 saleType, address[] royaltyReceivers, uint96[] royaltyBps, uint64 auctionEndTime, uint256 basePrice, uint256 price) returns (uint256)',
  'event Minted(uint256 indexed tokenId, address indexed creator, string tokenURI, address[] royaltyReceivers, uint96[] royaltyBps)',
])

/** An 8x8 PNG (the upload checks images by content). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGOQqziBFTEMLQkABkZXgRDDjAEAAAAASUVORK5CYII=', 'base64')

let browser
let config

before(async () => {
  config = (await (await fetch(`${BASE}/api/config`)).json()).body
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
})

/** Signs in through the API: the access token. */
async function signIn({ email, password }) {
  const response = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  const json = await response.json()
  assert.equal(response.status, 200, JSON.stringify(json))
  return json.body.accessToken
}

/** The metadata and its image in the file store, through POST /api/nft/ipfsupload: the upload's answer. */
async function upload(token) {
  const form = new FormData()
  form.set('title', TITLE)
  form.set('description', 'Minted by a script, described by its token URI only.')
  form.set('nftCategory', 'art')
  form.set('properties', JSON.stringify([{ key: 'Habitat', value: 'Marsh' }, { key: 'Wingspan', value: '190' }]))
  form.set('file', new Blob([PNG], { type: 'image/png' }), 'heron.png')
  const response = await fetch(`${BASE}/api/nft/ipfsupload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form })
  const json = await response.json()
  assert.equal(response.status, 200, JSON.stringify(json))
  return json.body
}

/** Mints on the contract from dev account `MINTER_ACCOUNT`, as a script would: the new token's id. */
async function mintByScript(uri) {
  const transport = http(new URL(config.rpcUrl, BASE).href)
  const account = mnemonicToAccount(config.devMnemonic, { addressIndex: MINTER_ACCOUNT })
  const chain = { id: config.chainId, name: 'dev', nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 }, rpcUrls: { default: { http: [] } } }
  const wallet = createWalletClient({ account, chain, transport })
  const reader = createPublicClient({ chain, transport })
  const hash = await wallet.writeContract({ address: config.contractAddress, abi, functionName: 'mint', args: [uri, 0, [], [], 0n, 0n, 0n] })
  const receipt = await reader.waitForTransactionReceipt({ hash })
  assert.equal(receipt.status, 'success')
  const [minted] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'Minted' })
  assert.equal(minted.args.tokenURI, uri)
  return `${config.chainId}-${minted.args.tokenId}`
}

/** Waits until the server shows the token (the indexer follows the chain within a second or so). */
async function indexed(id) {
  const started = Date.now()
  while (Date.now() - started < TIMEOUT) {
    const response = await fetch(`${BASE}/api/nft/${id}/metadata`)
    if (response.ok) return (await response.json()).body
    await new Promise((r) => setTimeout(r, 300))
  }
  throw new Error(`${id} was never indexed`)
}

test('a token minted by a script shows its metadata state, and Refresh metadata brings its title and image', { timeout: 4 * TIMEOUT }, async () => {
  const uploaded = await upload(await signIn(UPLOADER))
  assert.match(uploaded.metaData, /^ipfs:\/\//)
  const id = await mintByScript(uploaded.metaData)
  const first = await indexed(id)
  assert.ok(['PENDING', 'FETCHED'].includes(first.status), `a new token's state: ${JSON.stringify(first)}`)
  assert.equal(first.tokenUri, uploaded.metaData)

  // A visitor, not signed in.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  await open(page, `/nft/${id}`)
  const state = page.getByTestId('metadata-state')
  await state.waitFor({ timeout: TIMEOUT })
  const shown = await state.getAttribute('data-status')
  assert.ok(['PENDING', 'FETCHED'].includes(shown), `the page shows the state: ${shown}`)
  if (shown === 'PENDING') assert.match(await state.innerText(), /Reading this NFT's metadata/)

  // Refresh is offered once a read is not running (the first read takes a few seconds).
  const refresh = page.getByTestId('metadata-refresh')
  await page.waitForFunction(() => !document.querySelector('[data-testid="metadata-refresh"]')?.hasAttribute('disabled'), null, { timeout: TIMEOUT })
  await refresh.click()
  await snackbar(page, 'Metadata refreshed: the title, image and properties are up to date.', TIMEOUT)
  await page.getByTestId('detail-title').filter({ hasText: TITLE }).waitFor({ timeout: TIMEOUT })
  assert.equal(await state.getAttribute('data-status'), 'FETCHED')

  const cid = uploaded.file.replace('/ipfs/', '')
  const image = page.getByTestId('detail-image').locator('img')
  await image.waitFor({ timeout: TIMEOUT })
  assert.ok((await image.getAttribute('src')).includes(cid), 'the image is the uploaded one, from this server')
  await page.waitForFunction(() => {
    const img = document.querySelector('[data-testid="detail-image"] img')
    return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0
  }, null, { timeout: TIMEOUT })
  assert.match(await page.getByTestId('properties').innerText(), /Habitat[\s\S]*Marsh/i)

  // The API agrees: the metadata's title, image and properties, read (not recorded by a creator).
  const nft = await nftDetail(id)
  assert.equal(nft.title, TITLE)
  assert.equal(nft.file, uploaded.file)
  assert.deepEqual(nft.properties, [{ key: 'Habitat', value: 'Marsh' }, { key: 'Wingspan', value: '190' }])

  // A second refresh at once is refused for a minute, and the page says so.
  await refresh.click()
  await snackbar(page, "This NFT's metadata was refreshed a moment ago. Try again in a minute.", TIMEOUT)
  await context.close()
})

test("a token URI on the minter's own host is never fetched by a visitor's browser", { timeout: 4 * TIMEOUT }, async () => {
  // The minter's host: it counts every request it gets.
  const asked = []
  const host = createServer((request, response) => {
    asked.push(request.url)
    response.setHeader('Content-Type', 'application/json')
    response.end(JSON.stringify({ name: `Tracker ${stamp}`, image: 'https://minter.invalid/pixel.png' }))
  })
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve))
  const uri = `http://127.0.0.1:${host.address().port}/token/${stamp}.json`
  try {
    const id = await mintByScript(uri)
    await indexed(id)
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const elsewhere = []
    page.on('request', (request) => {
      if (!request.url().startsWith(BASE) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) elsewhere.push(request.url())
    })
    // A try the content security policy stops never reaches the network: it is said on the console.
    page.on('console', (message) => {
      if (message.text().includes('Refused to')) elsewhere.push(message.text())
    })
    await open(page, `/nft/${id}`)
    // The server refuses a loopback address (its guard), so the check ends failed: from its word.
    await page.getByTestId('verification-icon').and(page.locator('[data-state="failed"]')).waitFor({ timeout: TIMEOUT })
    await page.getByTestId('metadata-state').and(page.locator('[data-status="FAILED"], [data-status="RETRYING"]')).waitFor({ timeout: TIMEOUT })
    await context.close()
    assert.deepEqual(elsewhere, [], 'the page asked no other site, nor tried to')
    assert.deepEqual(asked, [], "nobody asked the minter's host: not the visitor's browser, not the server")
  } finally {
    host.close()
  }
})
