import { createConnector } from '@wagmi/core'
import { siteStorage } from './site-storage'
import {
  type Address,
  type Chain,
  type EIP1193RequestFn,
  type Hex,
  createWalletClient,
  custom,
  getAddress,
  hexToBigInt,
  http,
  numberToHex,
  ProviderRpcError,
  SwitchChainError,
} from 'viem'
import { type HDAccount, mnemonicToAccount } from 'viem/accounts'

/**
 * How many accounts of the dev mnemonic the wallet dialog offers (0..19): the end-to-end suites'
 * and the demo people's (10..17). The server's `GET /api/dev/wallets` answers for as many.
 */
export const DEV_WALLET_ACCOUNTS = 20
export const DEV_WALLET_INDEX_KEY = 'devWallet.accountIndex'
const CONNECTED_KEY = 'devWallet.connected'

export function getDevWalletIndex(): number {
  const raw = Number(siteStorage.getItem(DEV_WALLET_INDEX_KEY) ?? '0')
  return Number.isInteger(raw) && raw >= 0 && raw < DEV_WALLET_ACCOUNTS ? raw : 0
}

export function setDevWalletIndex(index: number) {
  siteStorage.setItem(DEV_WALLET_INDEX_KEY, String(index))
}

type TxParams = {
  from?: Address
  to?: Address
  data?: Hex
  value?: Hex
  gas?: Hex
  gasPrice?: Hex
  maxFeePerGas?: Hex
  maxPriorityFeePerGas?: Hex
  nonce?: Hex
}

const big = (v: Hex | undefined) => (v === undefined ? undefined : hexToBigInt(v))

devWallet.type = 'devWallet' as const

/**
 * A wallet for the local development chain, offered only when /api/config says `devWallet`.
 * It holds viem local accounts derived from the chain's test mnemonic, signs messages and typed
 * data itself and sends transactions signed locally through the configured RPC. Everything else
 * is forwarded to the RPC. No browser extension is needed, so the end-to-end test can use it.
 */
export function devWallet(parameters: { mnemonic: string; rpcUrl: string }) {
  let account: HDAccount | null = null
  let connected = false

  const loadAccount = () => {
    account = mnemonicToAccount(parameters.mnemonic, { addressIndex: getDevWalletIndex() })
    return account
  }

  return createConnector<{ request: EIP1193RequestFn }>((config) => {
    const chain: Chain = config.chains[0]
    const rpc = http(parameters.rpcUrl)({ chain, retryCount: 0 })

    const request: EIP1193RequestFn = (async ({ method, params }: { method: string; params?: unknown }) => {
      const current = account ?? loadAccount()
      const p = (params ?? []) as unknown[]
      switch (method) {
        case 'eth_chainId':
          return numberToHex(chain.id)
        case 'eth_accounts':
          return connected ? [current.address] : []
        case 'eth_requestAccounts':
          return [current.address]
        case 'personal_sign':
          return current.signMessage({ message: { raw: p[0] as Hex } })
        case 'eth_sign':
          return current.signMessage({ message: { raw: p[1] as Hex } })
        case 'eth_signTypedData_v4': {
          const typed = typeof p[1] === 'string' ? JSON.parse(p[1]) : p[1]
          return current.signTypedData(typed)
        }
        case 'wallet_switchEthereumChain': {
          const wanted = Number((p[0] as { chainId: Hex }).chainId)
          if (wanted !== chain.id) throw new ProviderRpcError(new Error('Unrecognized chain'), { code: 4902, shortMessage: 'Unrecognized chain' })
          return null
        }
        case 'wallet_addEthereumChain':
          return null
        case 'eth_sendTransaction': {
          const tx = p[0] as TxParams
          const client = createWalletClient({ account: current, chain, transport: http(parameters.rpcUrl) })
          return client.sendTransaction({
            account: current,
            chain,
            to: tx.to,
            data: tx.data,
            value: big(tx.value),
            gas: big(tx.gas),
            nonce: tx.nonce === undefined ? undefined : Number(tx.nonce),
            ...(tx.maxFeePerGas
              ? { maxFeePerGas: big(tx.maxFeePerGas), maxPriorityFeePerGas: big(tx.maxPriorityFeePerGas) }
              : tx.gasPrice
                ? { gasPrice: big(tx.gasPrice) }
                : {}),
          } as Parameters<typeof client.sendTransaction>[0])
        }
        default:
          return rpc.request({ method, params } as never)
      }
    }) as EIP1193RequestFn

    const provider = { request }

    return {
      id: 'devWallet',
      name: 'Dev wallet',
      type: devWallet.type,
      async connect<withCapabilities extends boolean = false>(
        { chainId }: { chainId?: number; isReconnecting?: boolean; withCapabilities?: withCapabilities | boolean } = {},
      ) {
        if (chainId && chainId !== chain.id) throw new SwitchChainError(new Error('The dev wallet only knows the local chain'))
        const current = loadAccount()
        connected = true
        siteStorage.setItem(CONNECTED_KEY, 'true')
        return { accounts: [getAddress(current.address)] as never, chainId: chain.id }
      },
      async disconnect() {
        connected = false
        account = null
        siteStorage.removeItem(CONNECTED_KEY)
      },
      async getAccounts() {
        const current = account ?? loadAccount()
        return [getAddress(current.address)]
      },
      async getChainId() {
        return chain.id
      },
      async getProvider() {
        return provider
      },
      async isAuthorized() {
        return siteStorage.getItem(CONNECTED_KEY) === 'true'
      },
      async switchChain({ chainId }) {
        if (chainId !== chain.id) throw new SwitchChainError(new Error('The dev wallet only knows the local chain'))
        return chain
      },
      onAccountsChanged(accounts) {
        if (accounts.length === 0) this.onDisconnect()
        else config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) })
      },
      onChainChanged(id) {
        config.emitter.emit('change', { chainId: Number(id) })
      },
      onDisconnect() {
        connected = false
        config.emitter.emit('disconnect')
      },
    }
  })
}

/** A viem transport over the dev wallet's provider (used by tests and tools). */
export const devWalletTransport = (request: EIP1193RequestFn) => custom({ request })
