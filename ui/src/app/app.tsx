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
import { type WagmiConfig, createWagmiConfig } from '@/lib/wagmi'
import { routes } from './router'

const router = createBrowserRouter(routes)
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } })
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Loads /api/config during the 2-second startup loader, then builds the wallet configuration. */
function useStartup() {
  const [wagmiConfig, setWagmiConfig] = useState<WagmiConfig | null>(null)
  useEffect(() => {
    let cancelled = false
    Promise.all([fetchAppConfig(), delay(STARTUP_LOADER_MS)]).then(([config]) => {
      if (cancelled) return
      useConfigStore.getState().setConfig(config)
      setWagmiConfig(createWagmiConfig(config))
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
