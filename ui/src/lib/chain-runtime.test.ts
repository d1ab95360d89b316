import { connect } from 'wagmi/actions'
import { mnemonicToAccount } from 'viem/accounts'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type AppConfig, FALLBACK_CONFIG } from './app-config'
import { type ChainRuntime, startChainRuntime } from './chain-runtime'
import { setDevWalletIndex } from './dev-wallet-connector'
import { assumedConnection, useWalletConnection } from './wallet-connection'
import { useWalletStore } from './wallet-store'

// The well-known test mnemonic of local development chains (anvil, hardhat). No chain answers
// at 127.0.0.1:1: the dev wallet connects and signs without one.
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

describe('chain runtime', () => {
  afterEach(async () => {
    for (const chain of running.splice(0)) {
      await chain.disconnect().catch(() => undefined)
      chain.stop()
    }
    useWalletStore.setState({ walletType: null, walletAddress: null, connectorId: null })
    useWalletConnection.setState(assumedConnection())
  })

  it('mirrors the connection for the shell: connected, then disconnected', async () => {
    setDevWalletIndex(2)
    const chain = await start()
    expect(useWalletConnection.getState().status).toBe('disconnected')
    await connectDevWallet(chain)
    expect(useWalletConnection.getState()).toMatchObject({ status: 'connected', address: ACCOUNT_2, chainId: 80001, connectorId: 'devWallet' })
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
