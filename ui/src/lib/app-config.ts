import { create } from 'zustand'
import { apiRequest } from './api-client'
import { APP_CHAIN_ID } from './chains'

/** GET /api/config: what the server tells the UI about the chain, storage and sign-in options. */
export type AppConfig = {
  chainId: number
  chainName: string
  rpcUrl: string
  contractAddress: string
  deploymentBlock: number
  explorerUrl: string
  ipfsGateway: string
  googleClientId: string
  walletConnectProjectId: string
  devWallet: boolean
  devMnemonic?: string
}

/**
 * Used only when /api/config cannot be read (the API is down): the product's chain with the local
 * dev chain's RPC address, no optional sign-in or wallet integrations. The failure is logged.
 */
export const FALLBACK_CONFIG: AppConfig = {
  chainId: APP_CHAIN_ID,
  chainName: 'Matic Testnet',
  rpcUrl: 'http://127.0.0.1:8545',
  contractAddress: '',
  deploymentBlock: 0,
  explorerUrl: '',
  ipfsGateway: '/ipfs/',
  googleClientId: '',
  walletConnectProjectId: '',
  devWallet: false,
}

/**
 * The server may give a path (its `/rpc` proxy) as the RPC address; wallets need an absolute URL
 * (wallet_addEthereumChain rejects relative ones), so it is resolved against this origin.
 */
export function absoluteRpcUrl(rpcUrl: string, origin = window.location.origin) {
  try {
    return new URL(rpcUrl, origin).toString().replace(/\/$/, rpcUrl.endsWith('/') ? '/' : '')
  } catch {
    return rpcUrl
  }
}

export async function fetchAppConfig(): Promise<AppConfig> {
  try {
    const { body } = await apiRequest<AppConfig>('/api/config', { auth: false })
    const config = { ...FALLBACK_CONFIG, ...body }
    return { ...config, rpcUrl: absoluteRpcUrl(config.rpcUrl) }
  } catch (error) {
    console.error('Could not load /api/config; using defaults', error)
    return FALLBACK_CONFIG
  }
}

type ConfigState = { config: AppConfig | null; setConfig: (config: AppConfig) => void }

export const useConfigStore = create<ConfigState>()((set) => ({
  config: null,
  setConfig: (config) => set({ config }),
}))

/** The loaded configuration (the app renders routes only after it is loaded). */
export function useAppConfig(): AppConfig {
  return useConfigStore((s) => s.config) ?? FALLBACK_CONFIG
}

/** The configuration once loaded (during the startup loader). */
export function configured(): Promise<AppConfig> {
  const loaded = useConfigStore.getState().config
  if (loaded) return Promise.resolve(loaded)
  return new Promise((resolve) => {
    const unsubscribe = useConfigStore.subscribe(({ config }) => {
      if (!config) return
      unsubscribe()
      resolve(config)
    })
  })
}
