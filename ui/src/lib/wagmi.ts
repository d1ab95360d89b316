import { type Config, type CreateConnectorFn, createConfig, createStorage, http, injected } from '@wagmi/core'
import { type Chain, defineChain } from 'viem'
import { mainnet, polygon } from 'viem/chains'
import { siteStorage } from './site-storage'
import type { AppConfig } from './app-config'

export const APP_NAME = 'NFT Marketplace'

/** The product's chain (80001), as /api/config describes it. Currency MATIC, 18 decimals. */
export function appChain(config: AppConfig): Chain {
  return defineChain({
    id: config.chainId,
    name: config.chainName || 'Matic Testnet',
    nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
    blockExplorers: config.explorerUrl ? { default: { name: 'Explorer', url: config.explorerUrl } } : undefined,
    testnet: true,
  })
}

/** True on phones and tablets, where the MetaMask extension is not offered. */
export function isMobileDevice(userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent) {
  return /Android|iPhone|iPad|iPod|Mobile|IEMobile|Opera Mini/i.test(userAgent)
}

/**
 * The wallets that need code of their own (the Coinbase and WalletConnect SDKs, the dev wallet's
 * key derivation): loaded only when they are needed, that is when the wallet dialog opens or a
 * remembered wallet reconnects, so a first visit does not download them. Coinbase Wallet,
 * WalletConnect (only with a project id) and the dev wallet (only against the local chain).
 */
export async function loadWalletConnectors(config: AppConfig): Promise<CreateConnectorFn[]> {
  const [{ coinbaseWallet }, { walletConnect }, dev] = await Promise.all([
    import('@wagmi/connectors/coinbaseWallet'),
    import('@wagmi/connectors/walletConnect'),
    config.devWallet && config.devMnemonic ? import('./dev-wallet-connector') : null,
  ])
  return [
    coinbaseWallet({ appName: APP_NAME }),
    ...(config.walletConnectProjectId ? [walletConnect({ projectId: config.walletConnectProjectId, showQrModal: true })] : []),
    ...(dev && config.devMnemonic ? [dev.devWallet({ mnemonic: config.devMnemonic, rpcUrl: config.rpcUrl })] : []),
  ]
}

/**
 * The wagmi configuration: MetaMask (injected, not on mobile: it needs no code of its own) plus
 * `connectors` (see [`loadWalletConnectors`]). Ethereum and Polygon are known so the drawer's
 * network chooser can switch to them; everything the product does uses chains[0].
 */
export function createWagmiConfig(config: AppConfig, connectors: CreateConnectorFn[] = []) {
  const chain = appChain(config)
  const wagmiConfig = createConfig({
    chains: [chain, mainnet, polygon],
    connectors: [...(isMobileDevice() ? [] : [injected({ target: 'metaMask' })]), ...connectors],
    multiInjectedProviderDiscovery: false,
    // wagmi's default reads window.localStorage, which throws where the browser blocks site storage.
    storage: createStorage({ storage: siteStorage }),
    transports: {
      [chain.id]: http(config.rpcUrl),
      [mainnet.id]: http(),
      [polygon.id]: http(),
    },
  })
  if (connectors.length) withLoadedConnectors.add(wagmiConfig)
  return wagmiConfig
}

export type WagmiConfig = ReturnType<typeof createWagmiConfig>

/** Configurations that have their loadable connectors already. */
const withLoadedConnectors = new WeakSet<object>()

/**
 * Adds the loadable connectors to a running configuration, once (the wallet dialog calls it as it
 * opens). wagmi's own wallet discovery adds connectors the same way.
 */
export async function addWalletConnectors(wagmiConfig: Config, config: AppConfig) {
  if (withLoadedConnectors.has(wagmiConfig)) return
  withLoadedConnectors.add(wagmiConfig)
  try {
    const connectors = (await loadWalletConnectors(config)).map((fn) => wagmiConfig._internal.connectors.setup(fn))
    wagmiConfig._internal.connectors.setState((current) => [...current, ...connectors])
  } catch (error) {
    withLoadedConnectors.delete(wagmiConfig)
    throw error
  }
}
