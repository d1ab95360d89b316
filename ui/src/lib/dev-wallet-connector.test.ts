import { connect, disconnect, getConnection, signMessage } from 'wagmi/actions'
import { createConfig, http } from 'wagmi'
import { defineChain, verifyMessage } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterEach, describe, expect, it } from 'vitest'
import { devWallet, devWalletAddresses, setDevWalletIndex } from './dev-wallet-connector'

// The well-known test mnemonic of local development chains (anvil, hardhat).
const MNEMONIC = 'test test test test test test test test test test test junk'
const chain = defineChain({
  id: 80001,
  name: 'Matic Testnet',
  nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:1'] } },
})

function makeConfig() {
  return createConfig({
    chains: [chain],
    connectors: [devWallet({ mnemonic: MNEMONIC, rpcUrl: 'http://127.0.0.1:1' })],
    transports: { [chain.id]: http('http://127.0.0.1:1') },
  })
}

describe('dev wallet connector', () => {
  afterEach(() => localStorage.clear())

  it('offers the first ten accounts of the mnemonic', () => {
    const addresses = devWalletAddresses(MNEMONIC)
    expect(addresses).toHaveLength(10)
    expect(addresses[0]).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(addresses[1]).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
  })

  it('connects with the chosen account on the app chain', async () => {
    setDevWalletIndex(1)
    const config = makeConfig()
    const result = await connect(config, { connector: config.connectors[0] })
    expect(result.accounts[0]).toBe(mnemonicToAccount(MNEMONIC, { addressIndex: 1 }).address)
    expect(result.chainId).toBe(80001)
    expect(getConnection(config).status).toBe('connected')
    await disconnect(config)
  })

  it('really signs: the signature verifies for the account and not for another', async () => {
    setDevWalletIndex(2)
    const config = makeConfig()
    const { accounts } = await connect(config, { connector: config.connectors[0] })
    const message = 'Link this wallet to your marketplace account.'
    const signature = await signMessage(config, { message })
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await verifyMessage({ address: accounts[0], message, signature })).toBe(true)
    expect(await verifyMessage({ address: accounts[0], message: `${message}!`, signature })).toBe(false)
    const other = mnemonicToAccount(MNEMONIC, { addressIndex: 0 }).address
    expect(await verifyMessage({ address: other, message, signature })).toBe(false)
    await disconnect(config)
  })
})
