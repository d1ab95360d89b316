import { describe, expect, it } from 'vitest'
import { walletMatchesProfile } from './tampering'

const profile = {
  connectedWallet: [
    { walletProvider: 'Metamask', walletAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
    { walletProvider: 'Other', walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
  ],
}

describe('wallet tampering check', () => {
  it('accepts a stored wallet that matches a linked wallet (address case-insensitive)', () => {
    expect(walletMatchesProfile({ walletType: 'Metamask', walletAddress: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' }, profile)).toBe(true)
    expect(walletMatchesProfile({ walletType: 'Other', walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }, profile)).toBe(true)
  })
  it('rejects a stored address that is not linked', () => {
    expect(walletMatchesProfile({ walletType: 'Metamask', walletAddress: '0x0000000000000000000000000000000000000001' }, profile)).toBe(false)
  })
  it('rejects a stored type that does not match the linked provider', () => {
    expect(walletMatchesProfile({ walletType: 'Coinbase', walletAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }, profile)).toBe(false)
  })
  it('rejects missing local data or a missing profile', () => {
    expect(walletMatchesProfile({ walletType: null, walletAddress: null }, profile)).toBe(false)
    expect(walletMatchesProfile({ walletType: 'Metamask', walletAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }, null)).toBe(false)
    expect(walletMatchesProfile({ walletType: 'Metamask', walletAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }, { connectedWallet: [] })).toBe(false)
  })
})
