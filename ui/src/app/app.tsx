import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { Suspense, useEffect, useState } from 'react'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { SWRConfig } from 'swr'
import { WagmiProvider } from 'wagmi'
import { BusyOverlay } from '@/components/busy-overlay'
import { STARTUP_LOADER_MS, StartupLoader } from '@/components/startup-loader'
import { UiProvider } from '@/components/ui/provider'
import { Toaster } from '@/components/ui/toaster'
import { fetchAppConfig, useConfigStore } from '@/lib/app-config'
import { type WagmiConfig, createWagmiConfig, loadWalletConnectors } from '@/lib/wagmi'
import { useWalletStore } from '@/lib/wallet-store'
import { routes } from './router'

const router = createBrowserRouter(routes)
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } })
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Loads /api/config during the 2-second startup loader, then builds the wallet configuration: with
 * every wallet's code when a wallet is remembered (it reconnects on load), else with only what
 * needs none (the wallet dialog loads the rest when it opens).
 */
function useStartup() {
  const [wagmiConfig, setWagmiConfig] = useState<WagmiConfig | null>(null)
  useEffect(() => {
    let cancelled = false
    const withConnectors = async () => {
      const config = await fetchAppConfig()
      const remembered = useWalletStore.getState().connectorId
      const connectors = remembered ? await loadWalletConnectors(config).catch(() => []) : []
      return { config, connectors }
    }
    Promise.all([withConnectors(), delay(STARTUP_LOADER_MS)]).then(([{ config, connectors }]) => {
      if (cancelled) return
      useConfigStore.getState().setConfig(config)
      setWagmiConfig(createWagmiConfig(config, connectors))
    })
    return () => {
      cancelled = true
    }
  }, [])
  return wagmiConfig
}

export function App() {
  const wagmiConfig = useStartup()
  return (
    <UiProvider>
      <Suspense fallback={<StartupLoader />}>
        {wagmiConfig ? (
          <WagmiProvider config={wagmiConfig} reconnectOnMount>
            <QueryClientProvider client={queryClient}>
              <SWRConfig value={{ shouldRetryOnError: false, revalidateOnFocus: false }}>
                <RouterProvider router={router} />
              </SWRConfig>
            </QueryClientProvider>
          </WagmiProvider>
        ) : (
          <StartupLoader />
        )}
        <Toaster />
        <BusyOverlay />
      </Suspense>
    </UiProvider>
  )
}
