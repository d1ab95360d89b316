import { Suspense, lazy, useEffect, useState } from 'react'
import { toaster } from './toaster-store'

export { toaster }

/** Snackbars appear at the bottom right. Account messages stay 6 seconds. */
export const ACCOUNT_MESSAGE_DURATION = 6000

type Kind = 'success' | 'error' | 'warning' | 'info'

/** Shows a snackbar with an already translated (or server) message. */
export function notify(kind: Kind, description: string, duration = ACCOUNT_MESSAGE_DURATION) {
  return toaster.create({ type: kind, description, duration, closable: true })
}

/** The snackbars' view (the toast machine and its dismiss logic): downloaded with the first snackbar. */
const ToasterView = lazy(() => import('./toaster-view').then((m) => ({ default: m.ToasterView })))

/** Shows the snackbars of `toaster`; renders nothing until there is one (a first visit usually shows none). */
export function Toaster() {
  const [wanted, setWanted] = useState(() => toaster.getCount() > 0)
  useEffect(() => {
    if (wanted) return
    if (toaster.getCount() > 0) setWanted(true)
    return toaster.subscribe(() => setWanted(true))
  }, [wanted])
  return wanted ? (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  ) : null
}
