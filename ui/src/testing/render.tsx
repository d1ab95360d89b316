import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { SWRConfig } from 'swr'
import { UiProvider } from '@/components/ui/provider'
import { Toaster } from '@/components/ui/toaster'
import { BusyOverlay } from '@/components/busy-overlay'
import { registerNavigator } from '@/lib/navigation'

/**
 * Renders routes in a memory router with the app's UI providers and a fresh swr cache. Like the
 * app, without the wallet libraries: what needs the chain loads it (`loadChain`, with the
 * configuration of `useConfigStore`).
 */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] })
  registerNavigator((to, options) => void router.navigate(to, options))
  const utils = render(
    <UiProvider>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}>
        <RouterProvider router={router} />
        <Toaster />
        <BusyOverlay />
      </SWRConfig>
    </UiProvider>,
  )
  return { ...utils, router }
}

/** One page at one path, plus a probe route that prints where navigation went. */
export function renderPage(element: ReactElement, { path = '/', at = '/', extra = [] as RouteObject[] } = {}) {
  return renderRoutes(
    [{ path, element }, ...extra, { path: '*', element: <LocationProbe /> }],
    at,
  )
}

import { useLocation } from 'react-router'
export function LocationProbe() {
  const location = useLocation()
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>
}
