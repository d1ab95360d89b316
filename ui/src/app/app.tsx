import { Suspense, useEffect, useState } from 'react'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { SWRConfig } from 'swr'
import { BusyOverlay } from '@/components/busy-overlay'
import { STARTUP_LOADER_MS, StartupLoader } from '@/components/startup-loader'
import { UiProvider } from '@/components/ui/provider'
import { Toaster } from '@/components/ui/toaster'
import { fetchAppConfig, useConfigStore } from '@/lib/app-config'
import { loadChain } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { prefetchFirstScreen } from './prefetch'
import { routes } from './router'

const router = createBrowserRouter(routes)
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Loads /api/config, and the first screen's data and top pictures, during the 2-second startup
 * loader. A remembered wallet starts reconnecting as soon as the configuration is there (the
 * wallet libraries load meanwhile); without one, the wallet libraries wait until something needs
 * them (the wallet dialog, a trade, a chain read).
 */
function useStartup() {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    let cancelled = false
    prefetchFirstScreen()
    const configured = fetchAppConfig().then((config) => {
      if (cancelled) return
      useConfigStore.getState().setConfig(config)
      if (useWalletStore.getState().connectorId) loadChain().catch((error) => console.error('Could not load the wallet libraries', error))
    })
    Promise.all([configured, delay(STARTUP_LOADER_MS)]).then(() => {
      if (!cancelled) setReady(true)
    })
    return () => {
      cancelled = true
    }
  }, [])
  return ready
}

export function App() {
  const ready = useStartup()
  return (
    <UiProvider>
      <Suspense fallback={<StartupLoader />}>
        {ready ? (
          <SWRConfig value={{ shouldRetryOnError: false, revalidateOnFocus: false }}>
            <RouterProvider router={router} />
          </SWRConfig>
        ) : (
          <StartupLoader />
        )}
        <Toaster />
        <BusyOverlay />
      </Suspense>
    </UiProvider>
  )
}
