import { createConfig, http } from 'wagmi'
import { injected } from 'wagmi/connectors/injected'
import { coinbaseWallet } from 'wagmi/connectors/coinbaseWallet'
import { walletConnect } from 'wagmi/connectors/walletConnect'
import { mainnet, polygon } from 'wagmi/chains'
import { type Chain, defineChain } from 'viem'
import type { AppConfig } from './app-config'
import { devWallet } from './dev-wallet-connector'

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
 * Wallets: MetaMask (injected, not on mobile), Coinbase Wallet, WalletConnect (only with a project
 * id) and the dev wallet (only against the local chain). Ethereum and Polygon are known so the
 * drawer's network chooser can switch to them; everything the product does uses chains[0].
 */
export function createWagmiConfig(config: AppConfig) {
  const chain = appChain(config)
  const connectors = [
    ...(isMobileDevice() ? [] : [injected({ target: 'metaMask' })]),
    coinbaseWallet({ appName: APP_NAME }),
    ...(config.walletConnectProjectId
      ? [walletConnect({ projectId: config.walletConnectProjectId, showQrModal: true })]
      : []),
    ...(config.devWallet && config.devMnemonic
      ? [devWallet({ mnemonic: config.devMnemonic, rpcUrl: config.rpcUrl })]
      : []),
  ]
  return createConfig({
    chains: [chain, mainnet, polygon],
    connectors,
    multiInjectedProviderDiscovery: false,
    transports: {
      [chain.id]: http(config.rpcUrl),
      [mainnet.id]: http(),
      [polygon.id]: http(),
    },
  })
}

export type WagmiConfig = ReturnType<typeof createWagmiConfig>
