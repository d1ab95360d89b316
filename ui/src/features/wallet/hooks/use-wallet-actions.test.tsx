import { renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useSession } from '@/lib/auth'
import { useWalletStore } from '@/lib/wallet-store'
import { stubApi } from '@/testing/fetch'

import { SWRConfig } from 'swr'
import { type WalletConnection, useWalletConnection } from '@/lib/wallet-connection'
import { useWalletActions } from './use-wallet-actions'

const setConnection = (connection: Pick<WalletConnection, 'address' | 'chainId' | 'status'>) => useWalletConnection.setState(connection)

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const
const profile = (wallets: { walletProvider: string; walletAddress: string }[]) => ({
  userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'Neo', mobileNumber: '', avatar: '', bio: '', coverImage: '', authProvider: 'EMAIL' as const, connectedWallet: wallets,
})
const wrapper = ({ children }: { children: ReactNode }) => <SWRConfig value={{ provider: () => new Map() }}>{children}</SWRConfig>

describe('useWalletActions (tampering check)', () => {
  beforeEach(() => {
    // The profile request of useUser answers 404; these tests set the profile in the store.
    stubApi([])
  })
  afterEach(() => {
    useSession.setState({ token: undefined, user: null, userFresh: false })
    useWalletStore.setState({ walletType: null, walletAddress: null, connectorId: null })
    setConnection({ address: undefined, chainId: 80001, status: 'disconnected' })
    vi.restoreAllMocks()
    vi.unstubAllGlobals()
  })

  it('enables wallet actions when the stored wallet is linked to the fresh profile', () => {
    useSession.setState({ token: 'tok', user: profile([{ walletProvider: 'Other', walletAddress: ADDRESS }]), userFresh: true })
    useWalletStore.setState({ walletType: 'Other', walletAddress: ADDRESS })
    setConnection({ address: ADDRESS, chainId: 80001, status: 'connected' })
    const { result } = renderHook(() => useWalletActions(), { wrapper })
    expect(result.current.enabled).toBe(true)
    expect(result.current.tampered).toBe(false)
    expect(result.current.blockedReasonKey).toBeNull()
  })

  it('disables them and logs when the stored data matches no linked wallet', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    useSession.setState({ token: 'tok', user: profile([{ walletProvider: 'Metamask', walletAddress: ADDRESS }]), userFresh: true })
    useWalletStore.setState({ walletType: 'Coinbase', walletAddress: ADDRESS })
    setConnection({ address: ADDRESS, chainId: 80001, status: 'connected' })
    const { result } = renderHook(() => useWalletActions(), { wrapper })
    expect(result.current.enabled).toBe(false)
    expect(result.current.tampered).toBe(true)
    expect(result.current.blockedReasonKey).toBe('wallet.tampered')
    expect(log).toHaveBeenCalledWith(expect.stringContaining('does not match'))
  })

  it('flags a connected address other than the stored one', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    useSession.setState({ token: 'tok', user: profile([{ walletProvider: 'Other', walletAddress: ADDRESS }]), userFresh: true })
    useWalletStore.setState({ walletType: 'Other', walletAddress: ADDRESS })
    setConnection({ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chainId: 80001, status: 'connected' })
    const { result } = renderHook(() => useWalletActions(), { wrapper })
    expect(result.current.tampered).toBe(true)
    expect(result.current.enabled).toBe(false)
  })

  it('does not judge against a stale local profile', () => {
    useSession.setState({ token: 'tok', user: profile([]), userFresh: false })
    useWalletStore.setState({ walletType: 'Other', walletAddress: ADDRESS })
    setConnection({ address: ADDRESS, chainId: 80001, status: 'connected' })
    const { result } = renderHook(() => useWalletActions(), { wrapper })
    expect(result.current.tampered).toBe(false)
    expect(result.current.enabled).toBe(false)
  })

  it('reports the wrong network', () => {
    useSession.setState({ token: 'tok', user: profile([{ walletProvider: 'Other', walletAddress: ADDRESS }]), userFresh: true })
    useWalletStore.setState({ walletType: 'Other', walletAddress: ADDRESS })
    setConnection({ address: ADDRESS, chainId: 1, status: 'connected' })
    const { result } = renderHook(() => useWalletActions(), { wrapper })
    expect(result.current.wrongNetwork).toBe(true)
    expect(result.current.blockedReasonKey).toBe('wallet.differentNetwork')
    expect(result.current.ownerMismatchKey('0x0000000000000000000000000000000000000001')).toBe('wallet.differentWallet')
    expect(result.current.ownerMismatchKey(ADDRESS.toLowerCase())).toBeNull()
  })
})
