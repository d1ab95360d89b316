import { describe, expect, it } from 'vitest'
import { auctionFixture, BUYER_ADDRESS, nftFixture, OWNER_ADDRESS } from '@/testing/nft'
import { exploreQuery } from './api'
import { buyValueWei } from './actions'
import { formatCountdown } from '@/lib/format'
import { remaining } from './countdown'
import { cardTitle, cardUsername, displayPrice, explorerLink, isLiveAuction, profilePath, royaltyFee } from './format'
import { fetchableUrl, ipfsPath, metadataMismatch } from './metadata'
import { checkGuards, type GuardInput } from './trade'

describe('NFT formatting', () => {
  it('cuts card titles at 25 and usernames at 7 characters with an ellipsis', () => {
    expect(cardTitle('A'.repeat(25))).toBe('A'.repeat(25))
    expect(cardTitle('A'.repeat(26))).toBe(`${'A'.repeat(25)}...`)
    expect(cardUsername('alice_the_artist')).toBe('alice_t...')
    expect(cardUsername('bob')).toBe('bob')
  })

  it('shortens prices longer than 6 characters, keeping the full value for the tooltip', () => {
    expect(displayPrice('1.5', 'en')).toEqual({ text: '1.500', full: '1.500', truncated: false })
    expect(displayPrice('1234.5', 'en')).toEqual({ text: '1,235', full: '1,234.500', truncated: true })
    expect(displayPrice('1234.5', 'ge')).toEqual({ text: '1.235', full: '1.234,500', truncated: true })
  })

  it('sums the royalty percentages', () => {
    expect(royaltyFee(nftFixture())).toBe(7.5)
    expect(royaltyFee(nftFixture({ royalty: [] }))).toBe(0)
  })

  it('links the signed-in user to /myprofile and others to /user/{id}', () => {
    expect(profilePath('u1', 'u1')).toBe('/myprofile')
    expect(profilePath('u2', 'u1')).toBe('/user/u2')
    expect(profilePath(null, 'u1')).toBeNull()
  })

  it('builds no explorer link when no explorer is configured', () => {
    expect(explorerLink('', 'tx', '0x1')).toBeNull()
    expect(explorerLink('https://scan.example/', 'tx', '0x1')).toBe('https://scan.example/tx/0x1')
  })

  it('tells a live auction from an ended one', () => {
    expect(isLiveAuction(auctionFixture(60_000))).toBe(true)
    expect(isLiveAuction(auctionFixture(-1))).toBe(false)
    expect(isLiveAuction(nftFixture())).toBe(false)
  })

  it('pays the exact price in wei, from the wei field when there is one', () => {
    expect(buyValueWei(nftFixture({ fixedPriceWei: '123' }))).toBe(123n)
    expect(buyValueWei(nftFixture({ fixedPriceWei: undefined, fixedPrice: '0.25' }))).toBe(250000000000000000n)
  })
})

describe('browse query', () => {
  it('omits the category for all and an empty search', () => {
    const query = exploreQuery({ formOfSale: 'AUCTION', category: 'all', sortBy: 'PRICE', orderBy: 1, search: '  ' }, 2)
    expect(query).toEqual({ nftCategory: undefined, page: 2, limit: 9, formOfSale: 'AUCTION', sortBy: 'PRICE', orderBy: 1, search: undefined })
    expect(exploreQuery({ formOfSale: 'FIXEDPRICE', category: 'c1', sortBy: 'DATE', orderBy: 0, search: ' cat ' }, 1).search).toBe('cat')
  })

  it('asks for verified creators only when the filter says so', () => {
    const base = { formOfSale: 'FIXEDPRICE', category: 'all', sortBy: 'DATE', orderBy: 0, search: '' } as const
    expect(exploreQuery({ ...base, verifiedOnly: true }, 1).verifiedOnly).toBe('true')
    expect(exploreQuery(base, 1).verifiedOnly).toBeUndefined()
  })
})

describe('countdown', () => {
  it('splits the time left into days, hours, minutes and seconds', () => {
    const now = 1_000_000
    const r = remaining(now + ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000, now)
    expect(r).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5, done: false })
    expect(formatCountdown(r, 'en').replace(/\u00a0/g, ' ')).toBe('2 days 3 hr')
    expect(formatCountdown(remaining(now + 59_000, now), 'ge').replace(/\u00a0/g, ' ')).toBe('59 Sek.')
    expect(remaining(now - 1, now).done).toBe(true)
  })
})

describe('metadata verification', () => {
  const nft = nftFixture({ properties: [{ key: 'Color', value: 'Pink' }, { key: 'Size', value: 'L' }] })
  const good = {
    name: nft.title,
    description: nft.description,
    image: 'ipfs://bafyimage',
    attributes: [{ trait_type: 'Color', value: 'Pink' }, { trait_type: 'Size', value: 'L' }],
  }

  it('treats ipfs://<cid> in metadata as /ipfs/<cid> in the API', () => {
    expect(ipfsPath('ipfs://bafy/x.png')).toBe('bafy/x.png')
    expect(ipfsPath('http://host/ipfs/bafy/x.png')).toBe('bafy/x.png')
    expect(fetchableUrl('ipfs://bafymeta', '/ipfs/')).toBe('/ipfs/bafymeta')
    expect(metadataMismatch(good, nft)).toBeNull()
  })

  it('names the first field that differs', () => {
    expect(metadataMismatch({ ...good, name: 'Other' }, nft)).toBe('name')
    expect(metadataMismatch({ ...good, description: 'x' }, nft)).toBe('description')
    expect(metadataMismatch({ ...good, image: 'ipfs://other' }, nft)).toBe('image')
    expect(metadataMismatch({ ...good, attributes: [...good.attributes].reverse() }, nft)).toBe('attributes')
    expect(metadataMismatch({ ...good, attributes: good.attributes.slice(0, 1) }, nft)).toBe('attributes')
  })
})

describe('trade guards', () => {
  const ready: GuardInput = {
    email: 'a@example.com',
    linkedAddresses: [OWNER_ADDRESS],
    walletConnected: true,
    address: OWNER_ADDRESS.toLowerCase(),
    chainId: 80001,
  }

  it('checks sign-in, then the wallet, then the network, then the owner, in that order', () => {
    const everythingWrong: GuardInput = { email: '', linkedAddresses: [], walletConnected: false, address: BUYER_ADDRESS, chainId: 1, ownerAddress: OWNER_ADDRESS }
    expect(checkGuards(everythingWrong)).toBe('signIn')
    expect(checkGuards({ ...everythingWrong, email: 'a@example.com' })).toBe('wallet')
    expect(checkGuards({ ...everythingWrong, email: 'a@example.com', walletConnected: true, linkedAddresses: [BUYER_ADDRESS] })).toBe('network')
    expect(checkGuards({ ...everythingWrong, email: 'a@example.com', walletConnected: true, linkedAddresses: [BUYER_ADDRESS], chainId: 80001 })).toBe('wrongWallet')
    expect(checkGuards({ ...ready, ownerAddress: OWNER_ADDRESS })).toBe('ok')
  })

  it('asks for the wallet when the connected one is not linked to the account', () => {
    expect(checkGuards({ ...ready, linkedAddresses: [BUYER_ADDRESS] })).toBe('wallet')
  })

  it('needs no owner for buying and bidding', () => {
    expect(checkGuards(ready)).toBe('ok')
  })
})
