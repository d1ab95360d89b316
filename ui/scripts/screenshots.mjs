// Screenshots of every shell screen in both themes at phone (390 px) and desktop (1440 px) widths.
//   npm run build && node scripts/screenshots.mjs [--no-api] [--only=name1,name2] [--themes=dark] [--widths=390] [--lang=ta] [--console] [--port=4173]
//   node scripts/screenshots.mjs --base=http://127.0.0.1:8080 [--as=ada_lumen@demo.example.com:demo-market-2024] [--only=…]
// Serves dist/ with `vite preview`, drives /usr/bin/chromium with playwright-core and writes PNGs
// to screenshots/ (git-ignored). By default the API is answered by the sample responses below
// (this is a test tool: the shipped app has no sample data); --no-api leaves every /api call
// failing, to check that the app degrades gracefully. --base shoots a running server instead
// (e.g. `marketplace dev` on its demo data): nothing is faked, signed-in screens sign in as
// --as (a demo person by default), and sample ids in paths become real ones.
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'screenshots')
const args = process.argv.slice(2)
const withApi = !args.includes('--no-api')
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',')
const themes = args.find((a) => a.startsWith('--themes='))?.slice(9).split(',') ?? ['dark', 'light']
const widths = (args.find((a) => a.startsWith('--widths='))?.slice(9).split(',') ?? ['390', '1440']).map(Number)
const lang = args.find((a) => a.startsWith('--lang='))?.slice(7)
const PORT = Number(args.find((a) => a.startsWith('--port='))?.slice(7) ?? 4173)
/** A running server to shoot as it is (its real data), instead of dist/ with sample answers. */
const realBase = args.find((a) => a.startsWith('--base='))?.slice(7).replace(/\/$/, '')
const signInAs = args.find((a) => a.startsWith('--as='))?.slice(5) ?? 'ada_lumen@demo.example.com:demo-market-2024'
const base = realBase ?? `http://127.0.0.1:${PORT}`

const art = (a, b) =>
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="400" height="400" fill="url(#g)"/><circle cx="200" cy="200" r="110" fill="white" fill-opacity="0.18"/><circle cx="260" cy="150" r="50" fill="white" fill-opacity="0.25"/></svg>`,
  )
const user = (id, username, fullName) => ({ userId: id, username, fullName, avatar: '' })
const nfts = [
  ['#7c3aed', '#22d3ee', 'Neon Dreams #12'],
  ['#ec4899', '#f59e0b', 'Sunset Protocol'],
  ['#10b981', '#3b82f6', 'Quiet Forest'],
  ['#f43f5e', '#8b5cf6', 'Glitch Portrait'],
  ['#0ea5e9', '#a855f7', 'Orbit'],
  ['#f97316', '#db2777', 'Cosmic Jellyfish Collection'],
].map(([a, b, title], i) => ({
  _id: `nft${i}`,
  nftTokenId: String(i + 1),
  formOfSale: 'FIXEDPRICE',
  createdAt: new Date(Date.now() - (i + 2) * 86_400_000).toISOString(),
  currentAuction: null,
  file: art(a, b),
  title,
  fixedPrice: [0.25, 1.5, 12.75, 0.08, 3, 1234.5][i],
  creator: user('u2', 'artemis', 'Artemis Vale'),
  currentOwner: user('u3', 'collector99', 'Jo Kim'),
  totalLikes: [12, 4, 31, 0, 7, 120][i],
  isLiked: i % 2 === 0,
  updatedAt: new Date(Date.now() - (i + 1) * 3_600_000 * (i * 9 + 1)).toISOString(),
}))
// The same NFTs as browse and detail answer them (marketplace.md section 3).
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const inHours = (h) => new Date(Date.now() + h * 3_600_000).toISOString()
const card = (nft, i, auction) => ({
  ...nft,
  _id: `${auction ? 'a' : 'f'}${i}`,
  nftTokenId: String(i + (auction ? 20 : 1)),
  description: 'A generative study of light over water, minted on the local chain. Each layer is drawn from a seed derived from the block it was minted in, so no two prints are alike. The palette follows the hour of the day at which the collector first opened it.',
  nftCategory: 'c1',
  metadataUrl: '/ipfs/bafymeta',
  fixedPrice: String(auction ? [5, 12, 2.5, 40, 9, 3][i] : nft.fixedPrice),
  formOfSale: auction ? 'AUCTION' : 'FIXEDPRICE',
  contractAddress: CONTRACT,
  contractType: 'ERC721',
  coinName: 'MATIC',
  isBookmarked: i === 1,
  createdAt: nft.updatedAt,
  currentAuction: auction
    ? { auctionId: String(i + 1), auctionStartPrice: '1', auctionBuyNowPrice: String([5, 12, 2.5, 40, 9, 3][i]), auctionHighestBid: i === 2 ? '0' : '1.25', auctionEndHours: i === 3 ? inHours(-1) : inHours(2 + i * 17), auctionEnded: i === 3 }
    : null,
  highestBid: auction && i !== 2 ? '1.25' : '0',
  royalty: [{ walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', percentage: 2.5 }],
  properties: [{ key: 'Palette', value: 'Dusk' }, { key: 'Layers', value: '7' }, { key: 'Seed', value: '0x5f1c' }],
  transactionHash: '0x' + 'ab'.repeat(32),
  creator: { ...nft.creator, address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
  currentOwner: { ...nft.currentOwner, ownerAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' },
})
const fixedCards = nfts.map((n, i) => card(n, i, false))
const auctionCards = nfts.map((n, i) => card(n, i, true))
const paged = (data) => ({ data, count: data.length, totalItems: data.length, currentPage: 1, lastPage: true, currentItemCount: data.length })
const bidder = (id, username, fullName) => ({ userId: id, username, fullName, avatar: '' })
const now = Date.now()
const browseApi = {
  '/api/misc/category': [{ id: 'c1', categoryName: 'Art' }, { id: 'c2', categoryName: 'Music' }, { id: 'c3', categoryName: 'Photography' }, { id: 'c4', categoryName: 'Sports' }, { id: 'c5', categoryName: 'Virtual worlds' }],
  '/api/nft/explore/': (url) => paged(url.searchParams.get('formOfSale') === 'AUCTION' ? auctionCards : fixedCards),
  '/api/nft/detail/f1': fixedCards[1],
  '/api/nft/detail/a0': auctionCards[0],
  '/api/nft/nftinauction/a0': [auctionCards[0].currentAuction],
  '/api/nft/nftinauction/f1': [],
  '/api/nft/bidhistory/a0/1/': paged([
    { id: 3, bidAmount: '1.25', status: 'BID', createdAt: new Date(now - 600_000).toISOString(), transactionHash: '0x3', bidder: bidder('u5', 'maya', 'Maya Lind') },
    { id: 2, bidAmount: '1.1', status: 'REFUNDED', createdAt: new Date(now - 7_200_000).toISOString(), transactionHash: '0x2', bidder: bidder('u6', 'oskar', 'Oskar Berg') },
    { id: 1, bidAmount: '1', status: 'REFUNDED', createdAt: new Date(now - 86_400_000).toISOString(), transactionHash: '0x1', bidder: bidder('u5', 'maya', 'Maya Lind') },
  ]),
  '/api/nft/nfthistory/f1': { data: [
    { id: 2, typeOfEvent: 'PUT_ON_FIXEDSALE', timestamp: new Date(now - 3_600_000).toISOString(), ...bidder('u3', 'collector99', 'Jo Kim') },
    { id: 1, typeOfEvent: 'MINTED', timestamp: new Date(now - 86_400_000).toISOString(), ...bidder('u2', 'artemis', 'Artemis Vale') },
  ] },
  '/api/nft/nfthistory/a0': { data: [{ id: 1, typeOfEvent: 'PUT_ON_AUCTION', timestamp: new Date(now - 3_600_000).toISOString(), ...bidder('u3', 'collector99', 'Jo Kim') }] },
}
// Offers (issue 20): on f1, and the signed-in person's made and received.
const offer = (id, nftId, username, amount, state, hours, extra = {}) => ({
  id, nftId, offererAddress: `0x${String(id).repeat(40).slice(0, 40)}`, offererUserId: `u${id}`, offererUsername: username, amount: String(amount),
  amountWei: String(BigInt(Math.round(amount * 1e6)) * 10n ** 12n), expiresAt: new Date(now + hours * 3_600_000).toISOString(), expiresAtUnix: 0, feeBps: 500,
  state, replaced: 0, nftBurned: false, acceptable: state === 'ACTIVE', withdrawable: state === 'ACTIVE' || state === 'EXPIRED', seller: null,
  transactionHash: '0x1', createdAt: new Date(now - 7_200_000).toISOString(), updatedAt: new Date(now - 3_600_000).toISOString(),
  closedAt: state === 'ACTIVE' || state === 'EXPIRED' ? null : new Date(now - 3_600_000).toISOString(), ...extra,
})
const offersApi = {
  '/api/nft/f1/offers': paged([offer(5, 'f1', 'maya', 1.45, 'ACTIVE', 70), offer(6, 'f1', 'oskar_the_very_long_name', 1234.5678, 'ACTIVE', 3), offer(7, 'f1', 'lumen', 0.9, 'EXPIRED', -2), offer(8, 'f1', 'pixelmonk', 0.5, 'REJECTED', 10)]),
  '/api/myoffers': paged([offer(1, 'f1', 'neo', 1.2, 'ACTIVE', 50), offer(2, 'f2', 'neo', 0.35, 'EXPIRED', -5), offer(3, 'f3', 'neo', 12.75, 'ACCEPTED', 20), offer(4, 'f4', 'neo', 0.08, 'CANCELLED', 20)]),
  '/api/myoffers/received': paged([offer(5, 'f1', 'maya', 1.45, 'ACTIVE', 70), offer(7, 'f1', 'lumen', 0.9, 'EXPIRED', -2)]),
  ...Object.fromEntries(fixedCards.map((c) => [`/api/nft/detail/${c._id}`, c])),
}
// Metadata of tokens minted elsewhere (issue 19): the states the NFT page shows.
const metadataState = (status, reason, extra = {}) => ({ status, reason, tokenUri: 'https://tokens.example.org/metadata/4021.json', attempts: 1, nextAttemptAt: null, updatedAt: new Date(now - 600_000).toISOString(), ...extra })
const metadataApi = {
  '/api/nft/f2/metadata': metadataState('FAILED', 'metadata: attributes[3].value must be a string, number or boolean'),
  '/api/nft/f3/metadata': metadataState('RETRYING', 'metadata: the server answered HTTP 502', { attempts: 2, nextAttemptAt: new Date(now + 120_000).toISOString() }),
  '/api/nft/f4/metadata': metadataState('PENDING', '', { attempts: 0, updatedAt: null, tokenUri: 'ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku' }),
  '/api/nft/f5/metadata': metadataState('FETCHED', ''),
}
const profile = {
  userId: 'u1',
  email: 'neo@example.com',
  username: 'neo',
  fullName: 'Thomas Anderson',
  mobileNumber: '5551234567',
  avatar: '',
  bio: 'Digital artist and collector. I make generative art about cities at night.',
  coverImage: '',
  authProvider: 'EMAIL',
  connectedWallet: [],
}
const auctions = nfts.slice(0, 4).map((n, i) => ({
  ...n,
  _id: `auc${i}`,
  nftTokenId: String(20 + i),
  formOfSale: 'AUCTION',
  currentAuction: { auctionId: `a${i}`, auctionStartPrice: '0.5', auctionBuyNowPrice: '4', auctionHighestBid: '0.9', auctionEndHours: new Date(Date.now() + (i + 1) * 7_200_000).toISOString(), auctionEnded: false },
}))
const page = (data) => ({ data, currentPage: 1, lastPage: true, totalItems: data.length })
const collections = [
  ['#0ea5e9', '#a855f7', 'Night City', 'u1', 'neo'],
  ['#f97316', '#db2777', 'Warm Abstractions', 'u2', 'artemis'],
  ['#10b981', '#3b82f6', 'Forest Studies', 'u2', 'artemis'],
  ['#f43f5e', '#8b5cf6', 'Glitch Portraits of the Year Two Thousand', 'u3', 'collector99'],
].map(([a, b, title, userId, username], i) => ({
  _id: `c${i + 1}`,
  title,
  image: art(a, b),
  creator: { userId, username, fullName: username, avatar: '' },
  nftCount: [3, 8, 1, 12][i],
  totalItems: [3, 8, 1, 12][i],
  createdAt: new Date(Date.now() - i * 86_400_000).toISOString(),
  isLiked: i === 1,
  totalLikes: [2, 14, 0, 5][i],
}))
const sellers = [
  ['u2', 'artemis', 'Artemis Vale', 'Painter of light and long shadows.'],
  ['u3', 'collector99', 'Jo Kim', 'I collect generative art and sell the duplicates.'],
  ['u4', 'pixelmonk', 'Ravi Menon', ''],
  ['u1', 'neo', 'Thomas Anderson', 'Digital artist and collector.'],
  ['u5', 'lumen', 'Lucía Fernández', 'Light, glass and slow animation.'],
].map(([userId, username, fullName, info], i) => ({ id: userId, userId, username, fullName, avatar: i === 2 ? art('#f59e0b', '#ec4899') : '', coverImage: i % 2 ? art('#1e3a8a', '#7c3aed') : '', info, totalSold: 20 - i * 3, totalCollection: 4 - (i % 3), totalCreations: 30 - i * 4 }))
const counts = { collections: 2, created: 6, owned: 4, inAuction: 4, inSale: 6 }
// The trait facets of a list (sample counts).
const facets = {
  total: 5,
  traits: [
    { name: 'Background', distinct: 5, values: [['Ivory', 8, true], ['Midnight', 5], ['Gold', 4], ['Sage', 4], ['Coral', 3]].map(([value, count, selected = false]) => ({ value, count, selected })) },
    { name: 'Frame', distinct: 3, values: [['Wood', 3], ['Neon', 1], ['Brass', 1]].map(([value, count]) => ({ value, count, selected: false })) },
    { name: 'Edition', distinct: 8, values: Array.from({ length: 8 }, (_, i) => ({ value: `${i + 1} of 8`, count: 8 - i, selected: false })) },
  ],
}

const api = {
  '/api/nft/facets': facets,
  '/api/collection/browse': page(collections),
  '/api/collection/browsebyid/c1': collections[0],
  '/api/nft/browsebycollection/c1': page(nfts.slice(0, 3)),
  '/api/trendingcreators': page(sellers),
  '/api/nft/profilecounts/u1': counts,
  '/api/nft/profilecounts/u2': counts,
  '/api/nft/mycreatednft': page(nfts),
  '/api/nft/mynftartwork': page(nfts.slice(2)),
  '/api/nft/usercreatednft/u2': page(nfts),
  '/api/nft/usersnftartwork/u2': page(nfts),
  '/api/nft/browsebookmarked': page(nfts.slice(1, 5)),
  '/api/config': { chainId: 80001, chainName: 'Matic Testnet', rpcUrl: 'http://127.0.0.1:1', contractAddress: '', deploymentBlock: 0, explorerUrl: '', ipfsGateway: '/ipfs/', googleClientId: '', walletConnectProjectId: '', devWallet: true, devMnemonic: 'test test test test test test test test test test test junk' },
  '/api/account/myprofile': profile,
  '/api/account/keys': [
    { keyId: 'k1', name: 'Floor price watcher', scopes: ['read', 'trades'], prefix: 'mk_live_Q7fz', createdAt: '2026-11-02T09:14:00Z', lastUsedAt: new Date(Date.now() - 120_000).toISOString() },
    { keyId: 'k2', name: 'Notifications to a team chat channel for the whole studio', scopes: ['notifications'], prefix: 'mk_live_b2Xe', createdAt: '2026-10-18T16:40:00Z', lastUsedAt: null },
  ],
  '/api/getmarketplacestatistics': { totalNftMinted: 1284, totalSeller: 312, totalNftSold: 867 },
  '/api/nft/trendingnfts': { data: nfts, currentPage: 1, lastPage: true, totalItems: 6 },
  '/api/nft/trendingnfts?AUCTION': page(auctions),
  ...browseApi,
  ...offersApi,
  ...metadataApi,
  '/api/account/getuserprofile/u2': { userId: 'u2', username: 'artemis', fullName: 'Artemis Vale', avatar: '', bio: 'Painter of light.', coverImage: '' },
  // Privacy (issue 28): what deleting takes, and a deleted account's page.
  '/api/account/deletion': {
    authProvider: 'EMAIL',
    hasPassword: true,
    wallets: ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'],
    openOnChain: [
      { kind: 'LISTING', nftId: 'f1', title: 'Sunset Protocol' },
      { kind: 'AUCTION', nftId: 'a0', title: 'Neon Dreams #12' },
      { kind: 'OFFER', nftId: 'f2', title: 'A generative study of light over water at the hour the collector first opened it' },
    ],
  },
  '/api/account/getuserprofile/ud': { userId: 'ud', username: 'deleted-Q2x9LmP0aZ7vTq4RkW1bYc', fullName: '', avatar: '', bio: '', coverImage: '', erased: true },
  '/api/nft/profilecounts/ud': counts,
  '/api/nft/usercreatednft/ud': page(nfts.slice(0, 3)),
  '/api/nft/usersnftartwork/ud': page(nfts.slice(0, 3)),
  '/api/activity': (url) => {
    const kind = url.searchParams.get('kind')
    return page(activity.filter((a) => !kind || a.kind === kind).filter((a) => !url.searchParams.get('nftId') || a.nftId === 'nft1'))
  },
}

// Moderation (issue 26): the queue, the staff, a hidden NFT (h1, the signed-in person's), the removed page (h2), the record.
const hoursAgo = (h) => new Date(now - h * 3_600_000).toISOString()
/** A sale held by a moderator (issue 26): its listing ended, on hold for 29 more days with a police report. */
const heldCard = { ...fixedCards[3], _id: 'k1', nftTokenId: '41', title: 'Harbour lights, long exposure', formOfSale: 'NOT_FOR_SALE', saleHeldUntil: inHours(29 * 24 + 5), saleHoldEvidence: true }
const standing = (hidden, extra = {}) => ({ hidden, hiddenReason: hidden ? 'Reported stolen: the artist showed the originals, minted in 2021 on another chain' : null, hiddenAt: hidden ? hoursAgo(30) : null, appealed: false, appealPending: false, verified: false, ...extra })
const report = (id, reason, text, username, h, state = 'OPEN') => ({ reportId: `r${id}`, reason, text, reporterId: `u${id}`, reporterUsername: username, filedAt: hoursAgo(h), state })
const ruling = (position, decision, targetKind, targetId, reason, moderator, reports, h) => ({ position, targetKind, targetId, decision, moderator, reason, reports, at: hoursAgo(h) })
Object.assign(api, {
  '/api/moderation/roles': { roles: ['admin'] },
  '/api/moderation/queue': (url) => {
    const items = [
      { targetKind: 'nft', targetId: 'f1', title: fixedCards[1].title, image: fixedCards[1].file, standing: standing(false), appeal: null, waitingSince: hoursAgo(26),
        openReports: [report(1, 'STOLEN', 'This is my painting from 2021; the original post is on my portfolio site with the date.', 'lumen', 26), report(2, 'SCAM', '', 'pixelmonk', 3)],
        pastReports: [report(3, 'SPAM', 'Listed three times', 'maya', 200, 'DISMISSED')], decisions: [ruling(90, 'DISMISS', 'nft', 'f1', 'One listing only; not spam', 'kofi_waves', 1, 190)] },
      { targetKind: 'nft', targetId: 'h1', title: 'Night market, lanterns', image: '/ipfs/bafywithheld', standing: standing(true, { appealed: true, appealPending: true }), appeal: 'I painted this myself in 2023; the sketches and the layered file are on my site. Please look again.', waitingSince: hoursAgo(5),
        openReports: [], pastReports: [report(4, 'STOLEN', 'Copied from a gallery', 'oskar', 40, 'ACTIONED')], decisions: [ruling(120, 'HIDE', 'nft', 'h1', 'Reported stolen with evidence', 'kofi_waves', 1, 30)] },
      { targetKind: 'nft', targetId: 'k1', title: heldCard.title, image: heldCard.file, standing: standing(false), appeal: null, waitingSince: hoursAgo(50),
        openReports: [report(6, 'STOLEN', 'Taken from my wallet on 3 November; police report 2026/48113 filed with the city police.', 'harbour_keeper', 50)], pastReports: [], decisions: [] },
      { targetKind: 'user', targetId: 'u4', title: 'pixelmonk', image: null, standing: standing(false, { verified: true }), appeal: null, waitingSince: hoursAgo(1),
        openReports: [report(5, 'OTHER', 'Sends the same message to every seller asking them to move the sale to another site.', 'artemis', 1)], pastReports: [], decisions: [] },
    ]
    return { items: items.slice(0, Number(url.searchParams.get('limit') ?? 50)), total: items.length }
  },
  '/api/staff': [
    { userId: 'u1', username: 'neo', roles: ['admin'], since: hoursAgo(900) },
    { userId: 'u6', username: 'kofi_waves', roles: ['moderator'], since: hoursAgo(400) },
    { userId: 'u7', username: 'noor_grid_with_a_long_username', roles: ['admin', 'moderator'], since: hoursAgo(20) },
  ],
  '/api/transparency': {
    months: [
      { month: '2026-11', reports: { SCAM: 4, EXPLICIT: 1, SPAM: 12, STOLEN: 3, OTHER: 2 }, decisions: { HIDE: 5, RESTORE: 1, DISMISS: 9, VERIFY: 2, UNVERIFY: 0 }, medianHoursToDecision: 6.5 },
      { month: '2026-10', reports: { SCAM: 1, SPAM: 3, STOLEN: 1 }, decisions: { HIDE: 1, DISMISS: 3, VERIFY: 1 }, medianHoursToDecision: 31 },
      { month: '2026-09', reports: {}, decisions: { VERIFY: 1 }, medianHoursToDecision: null },
    ],
    decisions: [
      ruling(130, 'RESTORE', 'nft', 'h3', 'The owner showed the layered originals; the report was mistaken', 'kofi_waves', 0, 2),
      ruling(120, 'HIDE', 'nft', 'h1', 'Reported stolen with evidence', 'kofi_waves', 1, 30),
      ruling(110, 'VERIFY', 'collection', 'c1', '', 'neo', 0, 50),
      ruling(100, 'UNVERIFY', 'user', 'u5', 'The account changed hands', 'neo', 0, 400),
    ],
    totalDecisions: 4,
  },
  // A stolen-item hold (k1): reported stolen, held with a police report for 29 more days.
  '/api/nft/detail/k1': heldCard,
  '/api/nft/usersnftartwork/u2': page([heldCard, ...nfts.slice(0, 3)]),
  '/api/moderation/nft/k1': standing(false),
  '/api/moderation/nft/h1': standing(true),
  '/api/moderation/nft/h2': standing(true),
  '/api/moderation/user/u2': standing(false, { verified: true }),
  '/api/moderation/collection/c1': standing(false, { verified: true }),
  '/api/nft/detail/h1': { ...fixedCards[2], _id: 'h1', title: 'Night market, lanterns', formOfSale: 'NOT_FOR_SALE', file: '/ipfs/bafywithheld', currentOwner: { ...user('u1', 'neo', 'Thomas Anderson'), ownerAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' } },
  '/api/nft/detail/h2': { status: 451, message: 'This NFT was hidden by the moderators: Reported stolen: the artist showed the originals, minted in 2021 on another chain' },
})

// The activity feed: one row of each kind, newest first (GET /api/activity).
const wallet = (n) => `0x${String(n).repeat(4)}${'0'.repeat(32)}${String(n).repeat(4)}`
const activity = [
  ['SALE', 'PURCHASED', 1, '1.5', user('u3', 'collector99', 'Jo Kim'), user('u2', 'artemis', 'Artemis Vale'), 4],
  ['BID', 'BIDDED_FOR', 4, '0.42', null, user('u2', 'artemis', 'Artemis Vale'), 11],
  ['OFFER', 'OFFER_MADE', 2, '10', user('u3', 'collector99', 'Jo Kim'), null, 38],
  ['PRICE', 'PRICE_CHANGED', 5, '1234.5', user('u2', 'artemis', 'Artemis Vale'), null, 95],
  ['TRANSFER', 'TRANSFERRED', 0, null, user('u2', 'artemis', 'Artemis Vale'), null, 300],
  ['LIST', 'PUT_ON_AUCTION', 4, '0.25', user('u2', 'artemis', 'Artemis Vale'), null, 1440],
  ['STOP', 'REMOVED_FROM_SALE', 3, null, user('u3', 'collector99', 'Jo Kim'), null, 3000],
  ['BURN', 'BURNED', 3, null, user('u3', 'collector99', 'Jo Kim'), null, 5000],
  ['MINT', 'MINTED', 1, null, user('u2', 'artemis', 'Artemis Vale'), null, 9000],
].map(([kind, event, n, price, who, other, minutes], i) => ({
  id: 100 - i,
  kind,
  event,
  nftId: nfts[n]._id,
  nftTitle: nfts[n].title,
  nftFile: nfts[n].file,
  price,
  priceWei: price && String(BigInt(Math.round(Number(price) * 1e6)) * 10n ** 12n),
  address: wallet(i + 1),
  user: who,
  counterpart: other || kind === 'TRANSFER' ? wallet(i + 5) : null,
  counterpartUser: other,
  transactionHash: `0x${String(i).repeat(64)}`,
  timestamp: new Date(Date.now() - minutes * 60_000).toISOString(),
}))

/** On a real server: links the dev wallet (the account offered first, the signed-in person's), from the top bar or the drawer. */
async function connectDevWallet(page, width) {
  await page.click(width >= 600 ? '[data-testid="connect-wallet"]' : '[data-testid="drawer-button"]')
  if (width < 600) await page.click('[data-testid="wallet-panel-connect"]')
  await page.waitForFunction(() => document.querySelector('[data-testid="dev-wallet-account-hint"]'), null, { timeout: 20000 })
  await page.click('[data-testid="wallet-option-devWallet"]')
  // 'Connected!' in any language (--lang).
  await page.getByTestId('snackbar').first().waitFor({ timeout: 20000 })
  await page.waitForTimeout(1500)
}

// name, path, signed in? (false; true: as --as; a username or `owner:h1`: as that demo person on a real server), action
const screens = [
  ['landing', '/', false],
  ['landing-signed-in', '/', true],
  ['sign-in', '/authentication/sign-in?ref=change-email', false],
  ['sign-up', '/authentication/sign-up', false],
  ['forgot-password', '/authentication/verify-email', false],
  ['email-verification', '/authentication/email-verification/neo@example.com', false],
  ['activate', '/activate/neo@example.com/-1', false],
  ['password-reset', '/passwordreset/abc', false],
  ['token-expiry', '/token-expiry?callbackURL=/myprofile', false],
  ['not-found', '/no-such-page', false],
  ['terms', '/terms-and-condition', false],
  ['privacy', '/privacy-policy', false],
  ['faq', '/frequently-asked-questions', false],
  ['contact', '/contact-us', false],
  ['profile-view', '/profile/user-profile', true],
  ['edit-profile', '/profile/edit-profile', true],
  ['language', '/profile/language', true],
  ['theme', '/profile/theme', true],
  // API keys (issue 27): the list, the create dialog filled in, and the key shown once (on a
  // real server --base, this last one makes a key).
  ['api-keys', '/profile/api-keys', true],
  ['api-key-dialog', '/profile/api-keys', true, async (page) => {
    await page.click('[data-testid="api-key-create"]')
    await page.fill('[data-testid="api-key-name"]', 'Floor price watcher')
    await page.click('[data-testid="api-key-scope-trades"]')
  }],
  ...(realBase ? [['api-key-created', '/profile/api-keys', true, async (page) => {
    await page.click('[data-testid="api-key-create"]')
    await page.fill('[data-testid="api-key-name"]', 'Floor price watcher')
    await page.click('[data-testid="api-key-submit"]')
    await page.waitForSelector('[data-testid="api-key-secret"]')
  }]] : []),
  // Webhooks (issue 27): the add dialog filled in, the secret shown once (on a real server
  // --base, this makes an endpoint to a loopback receiver the server must allow), the list, a
  // delivery log.
  ['webhook-dialog', '/profile/webhooks', true, async (page) => {
    await page.click('[data-testid="webhook-create"]')
    await page.fill('[data-testid="webhook-url-input"]', 'https://hooks.example.com/market')
    await page.click('[data-testid="webhook-kind-SOLD"]')
  }],
  ...(realBase ? [['webhook-created', '/profile/webhooks', true, async (page) => {
    await page.click('[data-testid="webhook-create"]')
    await page.fill('[data-testid="webhook-url-input"]', process.env.SCREENSHOT_WEBHOOK_URL ?? 'http://127.0.0.1:18477/hook')
    await page.click('[data-testid="webhook-kind-SOLD"]')
    await page.click('[data-testid="webhook-submit"]')
    await page.waitForSelector('[data-testid="webhook-secret"]')
  }]] : []),
  ['webhooks', '/profile/webhooks', true],
  ...(realBase ? [['webhook-log', '/profile/webhooks', true, async (page) => {
    await page.click('[data-testid="webhook-test"]')
    await page.waitForTimeout(1000)
    await page.click('[data-testid="webhook-log"]')
    await page.waitForSelector('[data-testid="webhook-attempt"], [data-testid="webhook-log-empty"]')
  }]] : []),
  // Privacy (issue 28): the page, the delete dialog with a password typed (on a real server,
  // what the signed-in person still has open on chain), and a deleted account's page (on a real
  // server, SCREENSHOT_DELETED_USER names one).
  ['privacy-settings', '/profile/privacy', true],
  ['delete-account-dialog', '/profile/privacy', true, async (page) => {
    await page.click('[data-testid="account-delete"]')
    await page.waitForSelector('[data-testid="delete-account-goes"]', { timeout: 15000 })
    const password = page.locator('[data-testid="delete-account-password"]')
    if (await password.count()) await password.fill('not-my-password')
  }],
  ['deleted-user', '/user/ud', false],
  ['change-password', '/profile/change-password', true],
  ['change-email', '/profile/change-email', true],
  ['kyc-pending', '/profile/kyc-pending', true],
  ['kyc-approved', '/profile/kyc-approved', true],
  ['my-profile', '/myprofile', true],
  ['my-profile-created', '/myprofile?tab=created', true],
  ['user-profile', '/user/u2', true],
  ['collections', '/collections', false],
  ['collection-detail', '/collections/collection/c1', false],
  ['trending-sellers', '/trending-sellers', false],
  ['trending-creators', '/trending-creators', false],
  ['trending-seller-page', '/trending-sellers/u2', false],
  ['favourites', '/favourites?type=nft-bookmark', true],
  ['my-bids', '/mybids', true],
  ['notifications', '/notifications', true],
  ['collection-dialog', '/myprofile', true, async (page) => page.getByRole('button', { name: 'Create', exact: true }).click()],
  ['drawer', '/', true, async (page, width) => width < 600 && page.click('[data-testid="drawer-button"]')],
  ['wallet-dialog', '/', true, async (page, width) => {
    if (width >= 600) return page.click('[data-testid="connect-wallet"]')
    await page.click('[data-testid="drawer-button"]')
    await page.waitForTimeout(500)
    return page.click('[data-testid="wallet-panel-connect"]')
  }],
  ['explore', '/explore?type=all', false],
  // Trait facets (issue 19): a column at 1440 px, a drawer on a phone (opened here); the rarity order.
  ['explore-facets', '/explore?type=all&trait=Background%3AIvory', false, async (page, width) => {
    if (width < 600) await page.click('[data-testid="facets-open"]')
    await page.waitForTimeout(800)
  }],
  ['collection-facets', '/collections/collection/c1', false, async (page, width) => {
    if (width < 600) await page.click('[data-testid="facets-open"]')
    await page.waitForTimeout(800)
  }],
  ['collection-rarity', '/collections/collection/c1', false, async (page) => {
    await page.getByLabel('Sort by').selectOption('RARITY')
    await page.waitForTimeout(1000)
  }],
  ['activity', '/activity', false],
  ['activity-sales', '/activity', false, async (page) => page.click('[data-testid="activity-kind-SALE"]')],
  ['collection-activity', '/collections/collection/c1', false, async (page) => page.click('[data-testid="collection-tab-activity"]')],
  ['user-activity', '/user/u2?tab=activity', true],
  ['nft-activity', '/auction/a0', true, async (page) => {
    await page.getByRole('tab', { name: 'Activity' }).click()
    await page.waitForTimeout(800)
  }],
  // Market insight (issue 19): the ranking, a collection with sales (v1), an NFT that sold (s1) at its price history.
  ['stats', '/stats', false],
  ['stats-all-time', '/stats?period=ALL&sort=VOLUME&order=desc', false],
  ['collection-stats', '/collection/v1', false],
  ['nft-price-history', '/nft/s1', false, async (page) => {
    await page.waitForSelector('[data-testid="price-chart"], [data-testid="price-history-empty"]', { timeout: 15000 })
  }],
  ['auction', '/auction?type=all', true],
  ['nft-detail', '/explore/f1', true],
  ['auction-detail', '/auction/a0', true],
  ['nft-metadata-failed', '/explore/f2', false],
  ['nft-metadata-retrying', '/explore/f3', false],
  ['nft-metadata-pending', '/explore/f4', false],
  ['nft-metadata-fetched', '/explore/f5', false],
  ['avatar-menu', '/', true, async (page, width) => width >= 600 && page.click('[data-testid="avatar-menu"]', { force: true })],
  // Moderation (issue 26): the queue, a decision's reason, the staff, a report, a hidden NFT for its owner, the removed page, the record.
  ['moderation', '/moderation', true, async (page) => {
    await page.waitForSelector('[data-testid="queue-item"], [data-testid="queue-empty"]', { timeout: 15000 })
    const toggle = page.locator('[data-testid="queue-history-toggle"]')
    if (await toggle.count()) await toggle.first().click()
  }],
  ['moderation-hide', '/moderation', true, async (page) => {
    await page.waitForSelector('[data-testid="queue-item"], [data-testid="queue-empty"]', { timeout: 15000 })
    const actions = page.locator('[data-testid="action-hide"]')
    if (!(await actions.count())) return
    await actions.first().click()
    await page.fill('[data-testid="reason-text"]', 'Reported stolen: the artist showed the originals')
  }],
  ['moderation-staff', '/moderation', true, async (page) => {
    await page.click('[data-testid="moderation-tab-staff"]')
    await page.waitForSelector('[data-testid="staff-member"]', { timeout: 15000 })
  }],
  ['report-dialog', '/explore/f1', true, async (page) => {
    await page.click('[data-testid="target-menu"]')
    await page.click('[data-testid="report-item"]')
    await page.waitForSelector('[data-testid="report-dialog"]')
    await page.click('[data-testid="report-reason-OTHER"]')
    await page.click('[data-testid="report-submit"]')
  }],
  // The hidden NFT as its owner sees it: on a real server, signed in as that owner (the demo hides noor_grid's).
  ['nft-hidden-owner', '/nft/h1', 'owner:h1'],
  ['nft-removed', '/nft/h2', false],
  // Stolen-item holds (issue 26): the queue's hold controls and the hold dialog (on a real server as
  // kofi_waves, the contract's moderator, his Dev wallet connected for the dialog), a held NFT's
  // page for a buyer, and its card. On a real server the script holds one first (seedHold).
  ['moderation-holds', '/moderation', 'kofi_waves', async (page) => {
    await page.waitForSelector('[data-testid="hold-controls"]', { timeout: 15000 })
  }],
  ['moderation-hold-dialog', '/moderation', 'kofi_waves', async (page, width) => {
    await page.waitForSelector('[data-testid="hold-controls"]', { timeout: 15000 })
    // The dialog opens once a wallet is connected (else the wallet dialog does): only on a real server.
    if (!realBase) return
    await connectDevWallet(page, width)
    await page.keyboard.press('Escape')
    // 'Connected!' would cover the dialog's buttons.
    const closers = page.locator('[data-testid="snackbar"] button')
    for (let i = 0; i < 3 && (await closers.count()); i += 1) await closers.last().click().catch(() => undefined)
    await page.waitForTimeout(500)
    // Hold sale, or Extend hold on a held one (evidence is then the only choice).
    await page.locator('[data-testid="action-hold"]:enabled').first().click({ timeout: 15000 })
    await page.click('[data-testid="hold-term-evidence"]')
    await page.fill('[data-testid="hold-days"]', '60')
    await page.fill('[data-testid="hold-evidence"]', 'Case 2026/48113, City Police')
  }],
  ['nft-held', '/explore/k1', true],
  // Explore lists what is for sale: the held card is on its owner's profile.
  ['nft-held-card', '/user/{heldOwner}?tab=owned', false],
  ['transparency', '/transparency', false],
  ['verified-profile', '/user/u2', true, async (page) => page.click('[data-testid="target-menu"]')],
  // The signed-in person's own NFT (o1, not for sale): the owner's wallet notice, the action bar, the update form.
  ['nft-owner', '/nft/o1', true],
  ['update-nft', '/nft/update/o1', true],
  ['wallet-dialog-owner', '/nft/o1', true, async (page) => page.click('[data-testid="owner-wallet-connect"]')],
  ['create-asset-errors', '/create-asset', true, async (page) => {
    await page.keyboard.press('Escape')
    await page.waitForTimeout(300)
    await page.click('[data-testid="create-next"]')
  }],
  // On a real server: the dev wallet linked (the account offered first, the signed-in person's), then its menu or the drawer.
  ['wallet-connected', '/', true, async (page, width) => {
    if (!realBase) return
    await connectDevWallet(page, width)
    await page.click(width >= 600 ? '[data-testid="wallet-menu"]' : '[data-testid="drawer-button"]')
  }],
  // Offers and the cart (issue 20). On a real server the script first makes a few offers on chain (seedOffers).
  ['nft-offers', '/explore/f1', true, async (page) => {
    await page.click('[data-testid="offers-tab"]')
    await page.waitForSelector('[data-testid="offers-list"], [data-testid="offers-empty"]', { timeout: 15000 })
    await page.evaluate(() => window.scrollTo(0, 0))
  }],
  ['nft-offers-owner', '/nft/o1', true, async (page) => {
    await page.click('[data-testid="offers-tab"]')
    await page.waitForSelector('[data-testid="offers-list"], [data-testid="offers-empty"]', { timeout: 15000 })
    await page.evaluate(() => window.scrollTo(0, 0))
  }],
  ['make-offer-dialog', '/explore/f1', true, async (page, width) => {
    if (realBase && !(await page.locator('[data-testid="wallet-menu"]:visible').count())) {
      await connectDevWallet(page, width)
      await page.keyboard.press('Escape')
      await page.waitForTimeout(500)
    }
    // "Change offer" once the person has an offer on it (the same dialog, saying what it replaces).
    await page.locator('[data-testid="make-offer"]:visible, [data-testid="change-offer"]:visible').first().click()
    await page.waitForSelector('[data-testid="make-offer-dialog"]')
    await page.fill('[data-testid="offer-amount"]', '1.25')
  }],
  ['my-offers', '/myoffers', true],
  ['my-offers-received', '/myoffers?tab=received', true],
  ['cart-drawer', '/explore?type=all', true, async (page) => {
    await page.waitForSelector('[data-testid="card-add-to-cart"]', { timeout: 15000 })
    const buttons = page.locator('[data-testid="card-add-to-cart"]:visible')
    for (let i = 0; i < Math.min(3, await buttons.count()); i += 1) await buttons.nth(i).click()
    await page.click('[data-testid="cart-button"]:visible')
    await page.waitForSelector('[data-testid="cart-item"]')
    await page.waitForTimeout(1200)
  }],
].filter(([name]) => !only || only.includes(name))

/** On a real server: a signed-in session for --as, and real ids for the sample ones in paths. */
async function realSession() {
  const call = async (path, init) => {
    const response = await fetch(`${realBase}${path}`, init)
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return (await response.json()).body
  }
  const [email, ...password] = signInAs.split(':')
  const { accessToken } = await call('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: password.join(':') }) })
  const me = await call('/api/account/myprofile', { headers: { authorization: `Bearer ${accessToken}` } })
  const collection = (await call(`/api/collection/browse?userId=${me.userId}&limit=1`)).data[0] ?? (await call('/api/collection/browse?limit=1')).data[0]
  const sellers = (await call('/api/trendingcreators?type=SELLER')).data.filter((u) => u.userId !== me.userId)
  const someoneElse = sellers.find((u) => u.info && u.coverImage) ?? sellers[0]
  const nft = (await call('/api/nft/explore/?formOfSale=FIXEDPRICE&limit=30')).data.find((n) => n.currentOwner?.userId !== me.userId)
  const auction = (await call('/api/nft/explore/?formOfSale=AUCTION&limit=1')).data[0]
  const own = (await call('/api/nft/explore/?formOfSale=ALL&limit=100')).data.find((n) => n.currentOwner?.userId === me.userId && n.formOfSale === 'NOT_FOR_SALE')
  const sold = (await call('/api/activity?kind=SALE&limit=1')).data[0]
  const traded = (await call('/api/stats/collections?period=ALL&sortBy=VOLUME&limit=1')).data[0]
  // Hidden NFTs (moderation): one of the signed-in person's (its page shows them why), one of someone else's (the removed page).
  const auth = { headers: { authorization: `Bearer ${accessToken}` } }
  const hiddenIds = [...new Set((await call('/api/transparency?limit=100')).decisions.filter((d) => d.decision === 'HIDE' && d.targetKind === 'nft').map((d) => d.targetId))]
  const hidden = []
  for (const id of hiddenIds) if ((await call(`/api/moderation/nft/${id}`)).hidden) hidden.push(id)
  // The owner's view (h1) is shot signed in as its owner: the signed-in person's own hidden NFT, else
  // one whose owner the staff's view of it names (the demo hides noor_grid's). The removed page (h2)
  // is anyone else's view of a hidden NFT.
  const owners = new Map()
  for (const id of hidden) {
    const answer = await fetch(`${realBase}/api/nft/detail/${id}`, auth)
    owners.set(id, answer.ok ? (await answer.json()).body.currentOwner : null)
  }
  const h1 = hidden.find((id) => owners.get(id)?.userId === me.userId) ?? hidden.find((id) => owners.get(id)?.username)
  const h2 = hidden.find((id) => id !== h1) ?? h1
  const held = screens.some(([name]) => /held|holds|hold-/.test(name)) ? await seedHold({ token: accessToken, me, call }) : null
  const ids = { c1: collection?._id, u2: someoneElse?.userId, f1: nft?._id, a0: auction?._id, o1: own?._id, s1: sold?.nftId, v1: traded?.collectionId, h1, h2, k1: held?._id, ud: process.env.SCREENSHOT_DELETED_USER }
  const realPath = (path) =>
    path
      .replace(/\/(c1|u2|f1|a0|o1|s1|v1|h1|h2|k1|ud)(?=$|[/?])/, (whole, id) => (ids[id] ? `/${ids[id]}` : whole))
      .replace('{heldOwner}', held?.currentOwner?.userId ?? 'u2')
  if (screens.some(([name]) => /offers/.test(name))) await seedOffers({ token: accessToken, me, own, nft, call })
  // Screens shot as another demo person (a username, or `owner:h1`): signed in with --as's password.
  const sessions = new Map([[true, { token: accessToken, profile: me }]])
  for (const who of new Set(screens.map(([, , as]) => as).filter((as) => typeof as === 'string'))) {
    const username = who === 'owner:h1' ? (h1 ? owners.get(h1)?.username : undefined) : who
    try {
      if (!username) throw new Error('no hidden NFT whose owner is known')
      const session = await call('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `${username}@demo.example.com`, password: password.join(':') }) })
      const profile = await call('/api/account/myprofile', { headers: { authorization: `Bearer ${session.accessToken}` } })
      sessions.set(who, { token: session.accessToken, profile })
    } catch (error) {
      console.error(`${who}: shot as ${email} instead (${error.message})`)
      sessions.set(who, sessions.get(true))
    }
  }
  return { realPath, session: (as) => sessions.get(as) }
}

/**
 * On a real server without a held NFT: kofi_waves (the demo's moderator of the contract) holds a
 * listed NFT of a demo person's with a police report's hash for 29 days, from his dev wallet
 * account, and the signed-in person reports it stolen, so the queue shows the hold. Returns the
 * held NFT (its browse card).
 */
async function seedHold({ token, me, call }) {
  const all = (await call('/api/nft/explore/?formOfSale=ALL&limit=100')).data
  const already = all.find((n) => n.saleHeldUntil)
  if (already) return already
  const { createPublicClient, createWalletClient, http, keccak256, parseAbi, stringToBytes } = await import('viem')
  const { mnemonicToAccount } = await import('viem/accounts')
  const config = await call('/api/config')
  const url = new URL(config.rpcUrl, realBase).href
  const chain = { id: config.chainId, name: 'local', nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 }, rpcUrls: { default: { http: [url] } } }
  const reader = createPublicClient({ chain, transport: http(url) })
  const moderator = (await call('/api/dev/wallets')).find((w) => w.linkedTo?.username === 'kofi_waves')
  const target = all.find((n) => n.formOfSale === 'FIXEDPRICE' && n.currentOwner?.username && n.currentOwner.username !== 'kofi_waves' && n.currentOwner.userId !== me.userId)
  if (!moderator || !target) {
    console.error('seedHold: no dev wallet of kofi_waves or no listed NFT to hold')
    return null
  }
  const abi = parseAbi(['function holdSale(uint256 tokenId, uint64 until, bytes32 evidence)'])
  const { timestamp } = await reader.getBlock()
  const wallet = createWalletClient({ account: mnemonicToAccount(config.devMnemonic, { addressIndex: moderator.index }), chain, transport: http(url) })
  const args = [BigInt(target.nftTokenId), timestamp + BigInt(29 * 86400 + 5 * 3600), keccak256(stringToBytes('Case 2026/48113, City Police'))]
  await reader.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: config.contractAddress, abi, functionName: 'holdSale', args }) })
  const report = { targetKind: 'nft', targetId: target._id, reason: 'STOLEN', text: 'Taken from my wallet on 3 November; police report 2026/48113 filed with the city police.' }
  await fetch(`${realBase}/api/report`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(report) })
  const until = Date.now() + 30000
  while (Date.now() < until && !(await call(`/api/nft/detail/${target._id}`)).saleHeldUntil) await new Promise((r) => setTimeout(r, 500))
  return target
}

/**
 * On a real server without offers of the signed-in person's: makes some on chain with the dev
 * mnemonic's accounts (the demo people's), as wallets would, and waits for the indexer. Offers
 * on their own NFT (one expiring within seconds, one rejected) and theirs on others' NFTs (one cancelled).
 */
async function seedOffers({ token, me, own, nft: shown, call }) {
  const auth = { headers: { authorization: `Bearer ${token}` } }
  if ((await call('/api/myoffers?limit=1', auth)).totalItems > 0 || !own) return
  const { createPublicClient, createWalletClient, http, parseAbi, parseEther } = await import('viem')
  const { mnemonicToAccount } = await import('viem/accounts')
  const config = await call('/api/config')
  const url = new URL(config.rpcUrl, realBase).href
  const chain = { id: config.chainId, name: 'local', nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 }, rpcUrls: { default: { http: [url] } } }
  const reader = createPublicClient({ chain, transport: http(url) })
  const abi = parseAbi(['function makeOffer(uint256 tokenId, uint64 expiresAt) payable', 'function cancelOffer(uint256 tokenId)', 'function rejectOfferFrom(uint256 tokenId, address offerer)'])
  const mine = (me.connectedWallet ?? []).map((w) => w.walletAddress.toLowerCase())
  const index = Array.from({ length: 40 }, (_, i) => i).find((i) => mine.includes(mnemonicToAccount(config.devMnemonic, { addressIndex: i }).address.toLowerCase()))
  if (index === undefined) return console.error('seedOffers: the signed-in person has no dev wallet')
  const wallet = (i) => createWalletClient({ account: mnemonicToAccount(config.devMnemonic, { addressIndex: i }), chain, transport: http(url) })
  const send = async (i, functionName, args, value) => reader.waitForTransactionReceipt({ hash: await wallet(i).writeContract({ address: config.contractAddress, abi, functionName, args, value }) })
  const at = (seconds) => BigInt(Math.floor(Date.now() / 1000) + seconds)
  const tokenOf = (nft) => BigInt(nft.nftTokenId)
  await send(index + 1, 'makeOffer', [tokenOf(own), at(3 * 86400)], parseEther('0.35'))
  await send(index + 2, 'makeOffer', [tokenOf(own), at(7 * 86400)], parseEther('1.2'))
  const expiring = Date.now() + 12000
  await send(index + 3, 'makeOffer', [tokenOf(own), at(12)], parseEther('0.05'))
  await send(index + 4, 'makeOffer', [tokenOf(own), at(86400)], parseEther('0.08'))
  await send(index, 'rejectOfferFrom', [tokenOf(own), mnemonicToAccount(config.devMnemonic, { addressIndex: index + 4 }).address])
  // The first is the NFT the visitor's screens show (f1), with someone else's offer beside the person's.
  const listed = (await call('/api/nft/explore/?formOfSale=ALL&limit=60')).data.filter((n) => n.formOfSale !== 'AUCTION' && n.currentOwner?.userId !== me.userId && n._id !== shown?._id)
  const others = shown ? [shown, ...listed] : listed
  const addressOf = (i) => mnemonicToAccount(config.devMnemonic, { addressIndex: i }).address.toLowerCase()
  const bidder = [5, 6, 7, 1].map((d) => index + d).find((i) => addressOf(i) !== (shown?.currentOwner?.ownerAddress ?? '').toLowerCase())
  if (shown) await send(bidder, 'makeOffer', [tokenOf(shown), at(4 * 3600)], parseEther('0.2'))
  const amounts = ['0.4', '2.5', '0.15']
  for (const [i, nft] of others.slice(0, 3).entries()) await send(index, 'makeOffer', [tokenOf(nft), at([2, 30, 5][i] * 86400)], parseEther(amounts[i]))
  if (others[2]) await send(index, 'cancelOffer', [tokenOf(others[2])])
  const until = Date.now() + 30000
  while (Date.now() < until && (await call('/api/myoffers?limit=1', auth)).totalItems < 3) await new Promise((r) => setTimeout(r, 500))
  // The short one has expired by the time the screens are shot.
  await new Promise((r) => setTimeout(r, Math.max(0, expiring + 1500 - Date.now())))
}

async function waitForServer(url, tries = 60) {
  for (let i = 0; i < tries; i += 1) {
    try {
      const r = await fetch(url)
      if (r.ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`server at ${url} did not start`)
}

const server = realBase ? null : spawn(join(root, 'node_modules', '.bin', 'vite'), ['preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'], { cwd: root, stdio: 'ignore' })
let browser
try {
  await waitForServer(`${base}/`)
  const real = realBase ? await realSession() : null
  const pathOf = (path) => (real ? real.realPath(path) : path.replace('{heldOwner}', 'u2'))
  mkdirSync(outDir, { recursive: true })
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  for (const theme of themes) {
    for (const width of widths) {
      // Signed out, signed in as --as, then as other people (a username; sample answers: --as's profile).
      for (const signedIn of [false, true, ...new Set(screens.map((s) => s[2]).filter((as) => typeof as === 'string'))]) {
        const group = screens.filter((s) => s[2] === signedIn)
        if (!group.length) continue
        const session = real ? real.session(signedIn) : { token: 'screenshot-token', profile }
        const context = await browser.newContext({
          viewport: { width, height: width < 600 ? 844 : 900 },
          deviceScaleFactor: 1,
          // Phones get a phone user agent, so wallet choices for mobile apply (no MetaMask).
          ...(width < 600 ? { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1', isMobile: true, hasTouch: true } : {}),
        })
        await context.addInitScript(
          ([t, signed, p, lng, token]) => {
            localStorage.setItem('theme', t)
            if (lng) document.cookie = `i18next=${lng}; path=/`
            if (signed) {
              document.cookie = `secret=${token}; path=/`
              localStorage.setItem('userProfile', JSON.stringify(p))
            }
          },
          [theme, signedIn !== false, session?.profile, lang, session?.token],
        )
        const page = await context.newPage()
        page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`))
        if (args.includes('--console')) page.on('console', (m) => m.type() === 'error' && console.error(`[console] ${m.text().slice(0, 300)}`))
        if (!real) await page.route('**/api/**', (route) => {
          const url = new URL(route.request().url())
          const answer = withApi ? (api[`${url.pathname}?${url.searchParams.get('formOfSale')}`] ?? api[url.pathname]) : undefined
          const body = typeof answer === 'function' ? answer(url) : answer
          if (body === undefined) return route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ statuscode: 404, body: null, message: 'Not found' }) })
          // A refusal the sample answers carry (`{ status, message }`, e.g. a hidden NFT's 451).
          if (body && typeof body.status === 'number' && body.status >= 400) return route.fulfill({ status: body.status, contentType: 'application/json', body: JSON.stringify({ statuscode: body.status, body: null, message: body.message }) })
          return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ statuscode: 200, body, message: '' }) })
        })
        await page.goto(`${base}${pathOf(group[0][1])}`)
        await page.waitForSelector('[data-testid="startup-loader"]', { state: 'detached', timeout: 15000 })
        let opened = false
        for (const [name, path, , action] of group) {
          // A fresh load after an action too, so its dialog or menu is not left open on the next screen.
          if (action || opened) {
            await page.goto(`${base}${pathOf(path)}`)
            await page.waitForSelector('[data-testid="startup-loader"]', { state: 'detached', timeout: 15000 })
          } else {
            await page.evaluate((p) => {
              window.history.pushState({}, '', p)
              window.dispatchEvent(new PopStateEvent('popstate'))
            }, pathOf(path))
          }
          // A real server's images take longer than inline samples.
          await page.waitForTimeout(name === 'token-expiry' ? 400 : real ? 2500 : 900)
          opened = !!action
          if (action) {
            await action(page, width)
            await page.waitForTimeout(700)
          }
          const file = join(outDir, `${name}-${theme}-${width}${lang ? `-${lang}` : ''}.png`)
          await page.screenshot({ path: file, fullPage: true })
          console.log(file)
        }
        await context.close()
      }
    }
  }
} finally {
  await browser?.close()
  server?.kill()
}
