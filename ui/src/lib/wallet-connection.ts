/**
 * The wallet's connection as the shell sees it, without the wallet libraries: wagmi and viem
 * (some 100 KB of script) are loaded only when something needs the chain — a remembered wallet
 * reconnecting, the wallet dialog, a transaction, a chain read (see `loadChain`). Until then the
 * connection is what the persisted wallet store implies: 'reconnecting' when a wallet is
 * remembered (it reconnects as the app starts), else 'disconnected'. Once loaded, the chain
 * runtime (`chain-runtime.ts`) keeps that store (`wallet-connection-store.ts`) in step with wagmi's.
 */
import { useEffect, useState } from 'react'
import { type AppConfig, FALLBACK_CONFIG, useConfigStore } from './app-config'
import type { ChainRuntime } from './chain-runtime'

export type { ChainRuntime }
export { type ConnectionStatus, type WalletConnection, assumedConnection, useConnectionState, useWalletConnection } from './wallet-connection-store'

let runtime: Promise<ChainRuntime> | null = null
let started: ChainRuntime | null = null
/** The configuration the runtime was started with (the app's does not change once loaded; tests change it). */
let startedWith: AppConfig | null = null

/**
 * Loads wagmi and viem and starts the chain runtime, once (later calls get the same runtime):
 * the wallet configuration with the connectors, a reconnect of the remembered wallet, and the
 * connection kept in `useWalletConnection`. Uses the configuration from /api/config.
 */
export function loadChain(): Promise<ChainRuntime> {
  const config = useConfigStore.getState().config ?? FALLBACK_CONFIG
  if (!runtime || startedWith !== config) {
    const previous = runtime
    startedWith = config
    started = null
    const loading = import('./chain-runtime').then(async (m) => {
      await previous?.then((old) => old.stop()).catch(() => undefined)
      const chain = await m.startChainRuntime(config)
      if (runtime === loading) started = chain
      return chain
    })
    runtime = loading
    // A failed download may succeed on the next try.
    loading.catch(() => {
      if (runtime === loading) runtime = null
    })
  }
  return runtime
}

/** Whether the chain runtime was asked for (it may still be loading). */
export function chainRequested() {
  return runtime !== null
}

/** The chain runtime if it was asked for, without asking for it. */
export function requestedChain(): Promise<ChainRuntime> | null {
  return runtime
}

/** The chain runtime for a component that needs it: null while it loads (asks for it on mount). */
export function useChain(): ChainRuntime | null {
  const [chain, setChain] = useState(started)
  useEffect(() => {
    if (chain) return
    let current = true
    loadChain().then(
      (loaded) => current && setChain(loaded),
      (error) => console.error('Could not load the wallet libraries', error),
    )
    return () => {
      current = false
    }
  }, [chain])
  return chain
}
