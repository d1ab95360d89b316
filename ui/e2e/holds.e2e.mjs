// End-to-end test of a stolen-item hold (issue 26), against the real stack (`marketplace dev`, its
// demo data: kofi_waves is a moderator, and his wallet, dev account 11, a moderator of the contract):
//
//   E2E_BASE_URL=http://127.0.0.1:8080 node --test e2e/holds.e2e.mjs
//
// A demo person reports a listed NFT as stolen. A buyer has its page open, Buy offered. ada_lumen
// (an admin, whose wallet is no moderator of the contract) is told so in the queue before she
// could sign anything. kofi_waves holds the sale from the queue with his Dev wallet: 7 days,
// counted from the chain's clock. The buyer's open page turns to the hold and its end without a
// reload (no Buy left to press: a hold ends the listing), its card on the owner's profile says it, and on chain
// the buyer's purchase and the owner's new listing both revert with MarketplaceSaleHeld. kofi
// releases the hold from the queue; the owner lists again and the buyer's page offers Buy again.
//
// The hold ends by a release, not by advancing the chain's clock: the read model and the pages
// compare holds (and auctions) with the wall clock, which a real chain keeps to within a block;
// moving a shared dev chain a week ahead would end every auction on chain while the pages still
// show them running, for this suite and every one after it. The end by time is covered where it
// is decided: forge (the contract), the projection tests (the read model) and vitest (the pages).
//
// The NFT is chosen by query (listed, held by none, reported by nobody yet, owned by a demo
// person who is none of the people acting), and the suite leaves it listed again with its report
// dismissed, so other suites' leftovers and order do not matter.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { BASE, DEMO_PASSWORD, demoFinished, launchBrowser, openPage, signInWithOwnDevWallet } from './support.mjs'

const TIMEOUT = 90000
const MODERATOR = 'kofi_waves'
/** An admin of the market, but her wallet is not a moderator of the contract. */
const NOT_CONTRACT_MODERATOR = 'ada_lumen'
const REPORTER = 'mira_frames'
const BUYER = 'tomas_tiles'
const DEMO_PEOPLE = new Set(['ada_lumen', 'kofi_waves', 'mira_frames', 'pixel_olek', 'lucia_sprint', 'ravi_vault', 'noor_grid', 'tomas_tiles'])
const ACTING = new Set([MODERATOR, NOT_CONTRACT_MODERATOR, REPORTER, BUYER])
const WEEK = 7 * 86400
const stamp = Date.now().toString(36)

const HOLD_ABI = [
  'function buyToken(uint256 tokenId) payable',
  'function toggleForSale(uint256 tokenId, uint8 saleType, uint256 price, uint64 auctionEndTime, uint256 basePrice)',
  'function isModerator(address account) view returns (bool)',
  'function saleHeldUntil(uint256 tokenId) view returns (uint64)',
  'error MarketplaceSaleHeld(uint256 tokenId, uint64 until)',
  'error MarketplaceNotForSale(uint256 tokenId)',
]

let browser
let chain

/** The API as the holder of `bearer`: status and body. */
async function call(path, bearer, init = {}) {
  const headers = { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) }
  const response = await fetch(`${BASE}${path}`, { ...init, headers })
  return { status: response.status, body: (await response.json().catch(() => ({}))).body }
}

/** Signs a demo person in through the API: their access token. */
async function token(username) {
  const { status, body } = await call('/api/auth/login', null, { method: 'POST', body: JSON.stringify({ email: `${username}@demo.example.com`, password: DEMO_PASSWORD }) })
  assert.equal(status, 200, `${username} signs in`)
  return body.accessToken
}

/** The chain through the server's own RPC (what wallets use), and a wallet client per demo person's dev account. */
async function chainClients() {
  const { createPublicClient, createWalletClient, http, parseAbi } = await import('viem')
  const { mnemonicToAccount } = await import('viem/accounts')
  const config = (await call('/api/config')).body
  const url = new URL(config.rpcUrl, BASE).href
  const network = { id: config.chainId, name: 'local', nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 }, rpcUrls: { default: { http: [url] } } }
  const wallets = (await call('/api/dev/wallets')).body
  const indexOf = (username) => {
    const account = wallets.find((w) => w.linkedTo?.username === username)
    assert.ok(account, `the demo links a dev wallet account to ${username}`)
    return account.index
  }
  return {
    abi: parseAbi(HOLD_ABI),
    contract: config.contractAddress,
    reader: createPublicClient({ chain: network, transport: http(url) }),
    walletOf: (username) => createWalletClient({ account: mnemonicToAccount(config.devMnemonic, { addressIndex: indexOf(username) }), chain: network, transport: http(url) }),
    addressOf: (username) => wallets[indexOf(username)].address,
  }
}

/** The contract's refusal of `functionName` sent by `username`, by name (null when it would pass). */
async function refusal(username, functionName, args, value) {
  const { BaseError, ContractFunctionRevertedError } = await import('viem')
  try {
    await chain.reader.simulateContract({ address: chain.contract, abi: chain.abi, functionName, args, value, account: chain.walletOf(username).account })
    return null
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null
    return reverted?.data?.errorName ?? String(error)
  }
}

/** Sends `functionName` as `username` with a fixed gas limit, so a revert is mined rather than refused by estimation: its receipt. */
async function sendAnyway(username, functionName, args, value) {
  const hash = await chain.walletOf(username).writeContract({ address: chain.contract, abi: chain.abi, functionName, args, value, gas: 400000n })
  return chain.reader.waitForTransactionReceipt({ hash })
}

/** Polls the NFT's detail until `ready(detail)`. */
async function detailUntil(id, ready, what) {
  const until = Date.now() + TIMEOUT
  for (;;) {
    const { body } = await call(`/api/nft/detail/${id}`)
    if (body && ready(body)) return body
    if (Date.now() > until) throw new Error(`${what}: ${JSON.stringify({ formOfSale: body?.formOfSale, saleHeldUntil: body?.saleHeldUntil })}`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

before(async () => {
  await demoFinished()
  browser = await launchBrowser()
  chain = await chainClients()
  assert.ok(
    await chain.reader.readContract({ address: chain.contract, abi: chain.abi, functionName: 'isModerator', args: [chain.addressOf(MODERATOR)] }),
    `${MODERATOR}'s wallet is a moderator of the contract (the demo's setModerator)`,
  )
})

after(async () => {
  await browser?.close()
})

test('a moderator holds a reported NFT from the queue: no purchase on the page or on chain until he releases it', { timeout: 12 * TIMEOUT }, async () => {
  const moderatorToken = await token(MODERATOR)
  const reporterToken = await token(REPORTER)

  // A demo person's listed NFT, held by no one and awaiting no decision, owned by none of the people acting.
  const waiting = new Set((await call('/api/moderation/queue?limit=100', moderatorToken)).body.items.map((i) => `${i.targetKind}:${i.targetId}`))
  const listed = (await call('/api/nft/explore/?formOfSale=FIXEDPRICE&limit=100')).body.data
  const target = listed.find((n) => DEMO_PEOPLE.has(n.currentOwner?.username) && !ACTING.has(n.currentOwner.username) && !waiting.has(`nft:${n._id}`) && !n.saleHeldUntil)
  assert.ok(target, 'a listed NFT of a demo person to hold')
  const owner = target.currentOwner.username
  const tokenId = BigInt(target.nftTokenId)
  const price = BigInt(target.fixedPriceWei)
  console.log(`holding ${target._id} (${target.title}), owned by ${owner}`)

  // Reported stolen.
  const report = await call('/api/report', reporterToken, {
    method: 'POST',
    body: JSON.stringify({ targetKind: 'nft', targetId: target._id, reason: 'STOLEN', text: `Taken from my wallet; police report filed (${stamp})` }),
  })
  assert.equal(report.status, 200, `report: ${report.status}`)

  // A buyer has its page open: Buy is offered.
  const buyer = await signInWithOwnDevWallet(browser, BUYER)
  await openPage(buyer, `/explore/${target._id}`)
  await buyer.getByTestId('detail-title').waitFor({ timeout: TIMEOUT })
  assert.ok(await buyer.getByTestId('buy-now').first().isEnabled(), 'Buy is offered before the hold')

  // An admin whose wallet is no moderator of the contract is told so, before anything is signed.
  const admin = await signInWithOwnDevWallet(browser, NOT_CONTRACT_MODERATOR)
  await openPage(admin, '/moderation')
  const adminItem = admin.locator(`[data-testid="queue-item"][data-target="nft:${target._id}"]`)
  await adminItem.waitFor({ timeout: TIMEOUT })
  const problem = adminItem.getByTestId('hold-problem')
  await problem.waitFor({ timeout: TIMEOUT })
  assert.match(await problem.innerText(), /is not a moderator of the contract/)
  assert.ok(await adminItem.getByTestId('action-hold').isDisabled(), 'Hold sale is disabled for her wallet')
  await admin.context().close()

  // The moderator holds it from the queue: 7 days, signed by his Dev wallet.
  const moderator = await signInWithOwnDevWallet(browser, MODERATOR)
  await moderator.getByTestId('avatar-menu').click()
  await moderator.getByTestId('menu-moderation').click()
  const item = moderator.locator(`[data-testid="queue-item"][data-target="nft:${target._id}"]`)
  await item.waitFor({ timeout: TIMEOUT })
  const state = item.getByTestId('hold-state')
  await state.waitFor({ timeout: TIMEOUT })
  assert.equal(await state.getAttribute('data-held'), 'false')
  assert.equal(await item.getByTestId('hold-problem').count(), 0, 'his wallet may hold')
  await item.getByTestId('action-hold').click()
  const dialog = moderator.getByTestId('hold-dialog')
  await dialog.waitFor()
  assert.ok(await dialog.getByRole('radio', { name: /7 days/ }).isChecked(), '7 days is the first choice')
  await dialog.getByTestId('hold-submit').click()
  await moderator.getByTestId('snackbar').filter({ hasText: `The sale of ${target.title} is on hold until` }).first().waitFor({ timeout: TIMEOUT })
  await item.locator('[data-testid="hold-state"][data-held="true"]').waitFor({ timeout: TIMEOUT })

  // On chain and in the read model: held for 7 days from the chain's time, the listing ended.
  const heldUntil = await chain.reader.readContract({ address: chain.contract, abi: chain.abi, functionName: 'saleHeldUntil', args: [tokenId] })
  const { timestamp } = await chain.reader.getBlock()
  assert.ok(heldUntil > timestamp && heldUntil <= timestamp + BigInt(WEEK), `held until ${heldUntil}, chain time ${timestamp}`)
  const held = await detailUntil(target._id, (d) => !!d.saleHeldUntil, 'the read model shows the hold')
  assert.equal(Date.parse(held.saleHeldUntil) / 1000, Number(heldUntil))
  assert.equal(held.formOfSale, 'NOT_FOR_SALE', 'a hold ends the listing')
  assert.equal(held.saleHoldEvidence, false)

  // The buyer's open page turns to the hold without a reload: its end, nothing to buy.
  const notice = buyer.getByTestId('sale-held')
  await notice.waitFor({ timeout: TIMEOUT })
  assert.match(await buyer.getByTestId('sale-held-until').innerText(), /^Sale on hold until /)
  assert.equal(await buyer.locator('[data-testid="buy-now"]:enabled, [data-testid="place-bid"]:enabled, [data-testid="make-offer"]:enabled').count(), 0, 'no purchase, bid or offer offered')
  assert.ok(await buyer.getByTestId('held-offer').isDisabled(), 'the offer button is there, disabled, with the reason')
  // Its card says it too (explore lists what is for sale; the owner's profile lists what they own).
  await openPage(buyer, `/user/${target.currentOwner.userId}?tab=owned`)
  const card = buyer.getByTestId('nft-card').filter({ has: buyer.locator(`a[href="/explore/${target._id}"]`) }).first()
  await card.getByTestId('card-held-until').waitFor({ timeout: TIMEOUT })

  // On chain: the purchase reverts with MarketplaceSaleHeld (simulated, and sent anyway and mined as a revert); the owner cannot list it again.
  assert.equal(await refusal(BUYER, 'buyToken', [tokenId], price), 'MarketplaceSaleHeld')
  const bought = await sendAnyway(BUYER, 'buyToken', [tokenId], price)
  assert.equal(bought.status, 'reverted', 'the purchase sent on chain reverts')
  assert.equal(await refusal(owner, 'toggleForSale', [tokenId, 1, price, 0n, 0n]), 'MarketplaceSaleHeld')
  assert.equal((await call(`/api/nft/detail/${target._id}`)).body.currentOwner.username, owner, 'still the owner’s')

  // The moderator releases it from the queue.
  await item.getByTestId('action-release').click()
  const confirm = moderator.getByTestId('confirm-dialog')
  await confirm.getByRole('button', { name: 'Release hold' }).click()
  await moderator.getByTestId('snackbar').filter({ hasText: `The hold on ${target.title} is released` }).first().waitFor({ timeout: TIMEOUT })
  await item.locator('[data-testid="hold-state"][data-held="false"]').waitFor({ timeout: TIMEOUT })
  await detailUntil(target._id, (d) => !d.saleHeldUntil, 'the read model shows the release')

  // The listing the hold ended does not come back by itself: the owner lists it again, and Buy is offered.
  const relisted = await sendAnyway(owner, 'toggleForSale', [tokenId, 1, price, 0n, 0n])
  assert.equal(relisted.status, 'success', 'the owner lists it again once released')
  await detailUntil(target._id, (d) => d.formOfSale === 'FIXEDPRICE', 'the read model shows the new listing')
  await openPage(buyer, `/explore/${target._id}`)
  const buy = buyer.getByTestId('buy-now').first()
  await buy.waitFor({ timeout: TIMEOUT })
  assert.ok(await buy.isEnabled(), 'Buy is offered again')
  assert.equal(await buyer.getByTestId('sale-held').count(), 0)
  assert.equal(await refusal(BUYER, 'buyToken', [tokenId], price), null, 'and the contract would take the purchase')

  // Leaves no report open for other suites' queues.
  const dismissed = await call(`/api/moderation/nft/${target._id}/dismiss`, moderatorToken, { method: 'POST', body: JSON.stringify({ text: `The owner showed the purchase; not stolen (${stamp})` }) })
  assert.equal(dismissed.status, 200, `dismiss: ${dismissed.status}`)
  for (const page of [buyer, moderator]) await page.context().close()
})
