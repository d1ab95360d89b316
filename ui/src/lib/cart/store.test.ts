import { afterEach, describe, expect, it } from 'vitest'
import { nftFixture } from '@/testing/nft'
import { ownsNft } from './ownership'
import { cartItemOf, MAX_CART_ITEMS, useCartStore } from './store'

describe('the cart store', () => {
  afterEach(() => useCartStore.setState({ items: [], open: false }))

  it('adds an NFT once, with what the card showed, and keeps it in localStorage', () => {
    const nft = nftFixture({ _id: '80001-7', nftTokenId: '7', fixedPrice: '0.25', fixedPriceWei: '250000000000000000' })
    expect(useCartStore.getState().add(nft)).toBe(true)
    expect(useCartStore.getState().add(nft)).toBe(true)
    expect(useCartStore.getState().items).toEqual([
      { nftId: '80001-7', tokenId: '7', title: 'Sunset over the harbour', file: '/ipfs/bafyimage', price: '0.25', priceWei: '250000000000000000' },
    ])
    expect(JSON.parse(localStorage.getItem('cart') ?? '{}').state).toEqual({ items: useCartStore.getState().items })
  })

  it('does not keep the drawer open across reloads', () => {
    useCartStore.getState().setOpen(true)
    expect(JSON.parse(localStorage.getItem('cart') ?? '{}').state.open).toBeUndefined()
  })

  it('refuses a 21st NFT (the contract buys at most 20 at once)', () => {
    for (let i = 1; i <= MAX_CART_ITEMS; i += 1) expect(useCartStore.getState().add(nftFixture({ _id: `80001-${i}`, nftTokenId: String(i) }))).toBe(true)
    expect(useCartStore.getState().add(nftFixture({ _id: '80001-99', nftTokenId: '99' }))).toBe(false)
    expect(useCartStore.getState().items).toHaveLength(MAX_CART_ITEMS)
  })

  it('removes one, several, or all', () => {
    for (const id of ['1', '2', '3']) useCartStore.getState().add(nftFixture({ _id: `80001-${id}`, nftTokenId: id }))
    useCartStore.getState().remove('80001-2')
    expect(useCartStore.getState().items.map((i) => i.nftId)).toEqual(['80001-1', '80001-3'])
    useCartStore.getState().removeMany(['80001-1', '80001-9'])
    expect(useCartStore.getState().items.map((i) => i.nftId)).toEqual(['80001-3'])
    useCartStore.getState().clear()
    expect(useCartStore.getState().items).toEqual([])
  })

  it('names an untitled NFT by its token id', () => {
    expect(cartItemOf(nftFixture({ title: '', nftTokenId: '12' })).title).toBe('#12')
  })

  it("knows one's own NFTs by account or by a linked wallet", () => {
    const nft = nftFixture()
    expect(ownsNft(nft, 'u-owner', [])).toBe(true)
    expect(ownsNft(nft, 'someone', [nft.currentOwner.ownerAddress!.toUpperCase().replace('0X', '0x')])).toBe(true)
    expect(ownsNft(nft, 'someone', ['0x0000000000000000000000000000000000000001'])).toBe(false)
    expect(ownsNft(nft, undefined, [])).toBe(false)
  })
})
