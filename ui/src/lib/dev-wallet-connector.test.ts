import { connect, disconnect, getConnection, signMessage } from '@wagmi/core/actions'
import { createConfig, http } from '@wagmi/core'
import { defineChain, verifyMessage } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterEach, describe, expect, it } from 'vitest'
import { DEV_WALLET_ACCOUNTS, devWallet, getDevWalletIndex, setDevWalletIndex } from './dev-wallet-connector'

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

  it("keeps an account index up to 19, the demo people's 10-17 among them", () => {
    expect(DEV_WALLET_ACCOUNTS).toBe(20)
    for (const index of [0, 10, 17, 19]) {
      setDevWalletIndex(index)
      expect(getDevWalletIndex()).toBe(index)
    }
    setDevWalletIndex(20)
    expect(getDevWalletIndex()).toBe(0)
  })

  it("connects as a demo person's account (index 10)", async () => {
    setDevWalletIndex(10)
    const config = makeConfig()
    const result = await connect(config, { connector: config.connectors[0] })
    // anvil's account 10 of the test mnemonic.
    expect(result.accounts[0]).toBe('0xBcd4042DE499D14e55001CcbB24a551F3b954096')
    await disconnect(config)
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
