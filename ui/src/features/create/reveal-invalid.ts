import { useCallback, useEffect, useState } from 'react'

/** The sticky top bar's height (4rem) plus some air: a field scrolled to must clear it. */
export const HEADER_CLEARANCE_PX = 80

/**
 * Scrolls the first invalid field of the page (`data-invalid` / `aria-invalid`, in document
 * order) into view below the sticky top bar and focuses its control.
 */
export function revealFirstInvalid(root: ParentNode = document) {
  const field = root.querySelector<HTMLElement>('[data-invalid], [aria-invalid="true"]')
  if (!field) return
  const top = Math.max(0, field.getBoundingClientRect().top + window.scrollY - HEADER_CLEARANCE_PX)
  window.scrollTo({ top, behavior: 'smooth' })
  const control = field.matches('input, select, textarea, button') ? field : field.querySelector<HTMLElement>('input, select, textarea, button')
  control?.focus({ preventScroll: true })
}

/** `reveal()` after a failed submit: once the errors are rendered, the first one is brought into view. */
export function useRevealInvalid() {
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    if (attempt > 0) revealFirstInvalid()
  }, [attempt])
  return useCallback(() => setAttempt((n) => n + 1), [])
}
