import { connect } from '@wagmi/core/actions'
import { mnemonicToAccount } from 'viem/accounts'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type AppConfig, FALLBACK_CONFIG } from './app-config'
import { type ChainRuntime, startChainRuntime } from './chain-runtime'
import { setDevWalletIndex } from './dev-wallet-connector'
import { assumedConnection, useWalletConnection } from './wallet-connection'
import { useWalletStore } from './wallet-store'

// The well-known test mnemonic of local development chains (anvil, hardhat). The dev wallet
// connects and signs without a chain; the balance and block reads get the answers below.
const MNEMONIC = 'test test test test test test test test test test test junk'
const config: AppConfig = { ...FALLBACK_CONFIG, rpcUrl: 'http://127.0.0.1:1', devWallet: true, devMnemonic: MNEMONIC }
const ACCOUNT_2 = mnemonicToAccount(MNEMONIC, { addressIndex: 2 }).address

const running: ChainRuntime[] = []
async function start() {
  const chain = await startChainRuntime(config)
  running.push(chain)
  return chain
}
async function connectDevWallet(chain: ChainRuntime) {
  await chain.addWalletConnectors()
  const devWallet = chain.config.connectors.find((c) => c.id === 'devWallet')!
  await connect(chain.config, { connector: devWallet })
  return devWallet
}

/** A JSON-RPC node that knows a balance of 5 wei and block 16 (the runtime polls both). */
function stubNode() {
  const node = vi.fn(async (_url: unknown, init?: RequestInit) => {
    const { id, method } = JSON.parse(String(init?.body))
    const result = method === 'eth_getBalance' ? '0x5' : method === 'eth_blockNumber' ? '0x10' : null
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), { headers: { 'Content-Type': 'application/json' } })
  })
  vi.stubGlobal('fetch', node)
  return node
}

describe('chain runtime', () => {
  beforeEach(() => {
    stubNode()
  })
  afterEach(async () => {
    for (const chain of running.splice(0)) {
      await chain.disconnect().catch(() => undefined)
      chain.stop()
    }
    useWalletStore.setState({ walletType: null, walletAddress: null, connectorId: null })
    useWalletConnection.setState(assumedConnection())
    vi.unstubAllGlobals()
  })

  it('mirrors the connection for the shell: connected, then disconnected', async () => {
    setDevWalletIndex(2)
    const chain = await start()
    expect(useWalletConnection.getState().status).toBe('disconnected')
    await connectDevWallet(chain)
    expect(useWalletConnection.getState()).toMatchObject({ status: 'connected', address: ACCOUNT_2, chainId: 80001, connectorId: 'devWallet' })
    // The balance on the app chain and the block number, read as it connects (then every 10 s).
    await vi.waitFor(() => expect(useWalletConnection.getState()).toMatchObject({ balanceWei: 5n, blockNumber: 16n }))
    await chain.disconnect()
    expect(useWalletConnection.getState()).toMatchObject({ status: 'disconnected', address: undefined, balanceWei: undefined })
  })

  it('reconnects a remembered wallet as it starts (a reload)', async () => {
    setDevWalletIndex(2)
    const before = await start()
    await connectDevWallet(before)
    useWalletStore.setState({ walletType: 'Other', walletAddress: ACCOUNT_2, connectorId: 'devWallet' })
    before.stop()
    running.splice(running.indexOf(before), 1)
    // The page is reloaded: the shell assumes the remembered wallet is reconnecting until the runtime says.
    useWalletConnection.setState(assumedConnection())
    expect(useWalletConnection.getState().status).toBe('reconnecting')
    const after = await start()
    expect(after.config.connectors.map((c) => c.id)).toContain('devWallet')
    expect(useWalletConnection.getState()).toMatchObject({ status: 'connected', address: ACCOUNT_2, chainId: 80001 })
  })

  it('asks the wallet to switch networks, adding a chain the wallet does not know (4902)', async () => {
    const chain = await start()
    const devWallet = await connectDevWallet(chain)
    const provider = (await devWallet.getProvider()) as { request: (args: { method: string; params?: unknown }) => Promise<unknown> }
    const request = vi.spyOn(provider, 'request')
    await chain.switchNetwork(1)
    expect(request.mock.calls.map(([args]) => args.method)).toEqual(['wallet_switchEthereumChain', 'wallet_addEthereumChain'])
    expect(request.mock.calls[1][0].params).toEqual([expect.objectContaining({ chainId: '0x1', chainName: 'Ethereum' })])
  })
})
