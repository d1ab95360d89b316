import { Suspense, lazy, useEffect, useState } from 'react'
import { toaster } from './toaster-store'

export { toaster }

/** Snackbars appear at the bottom right. Account messages stay 6 seconds. */
export const ACCOUNT_MESSAGE_DURATION = 6000
/** An error that must not slip by (a failed transaction) stays until it is closed. */
export const UNTIL_CLOSED = Infinity
/** At most this many snackbars show; a new one makes room by closing the oldest (errors last). */
export const MAX_SNACKBARS = 4

type Kind = 'success' | 'error' | 'warning' | 'info'

export type NotifyOptions = {
  duration?: number
  /** The raw detail behind a generic message (a node's error), shown folded under it. */
  detail?: string
  /** A button in the snackbar ("Bid again"). */
  action?: { label: string; onClick: () => void }
}

/** What a snackbar carries besides its text: its detail, and how many times the same message came. */
export type SnackbarMeta = { detail?: string; count: number }

/**
 * Shows a snackbar with an already translated (or server) message. The newest message always
 * shows: the same message again (same kind, text and detail) refreshes the one on screen and
 * counts it, and past {@link MAX_SNACKBARS} the oldest leaves (an error only when all are errors).
 * `options` may be the duration alone.
 */
export function notify(kind: Kind, description: string, options: number | NotifyOptions = {}) {
  const { duration = ACCOUNT_MESSAGE_DURATION, detail, action } = typeof options === 'number' ? { duration: options } : options
  const visible = toaster.getVisibleToasts() // newest first
  const same = visible.find((t) => t.type === kind && t.description === description && (t.meta as SnackbarMeta | undefined)?.detail === detail)
  if (same?.id) {
    const count = ((same.meta as SnackbarMeta | undefined)?.count ?? 1) + 1
    // The toast restarts its timer only when its duration changes: a millisecond more or less does it.
    const refreshed = same.duration === duration ? duration + 1 : duration
    return toaster.update(same.id, { duration: refreshed, action, meta: { detail, count } satisfies SnackbarMeta })
  }
  if (visible.length >= MAX_SNACKBARS) {
    const oldest = [...visible].reverse().find((t) => t.type !== 'error') ?? visible[visible.length - 1]
    if (oldest.id) toaster.remove(oldest.id)
  }
  return toaster.create({ type: kind, description, duration, closable: true, action, meta: { detail, count: 1 } satisfies SnackbarMeta })
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
