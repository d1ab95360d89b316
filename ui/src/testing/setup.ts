import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'
import { toaster } from '@/components/ui/toaster'
import { initTestI18n } from './i18n'
import i18n from 'i18next'

initTestI18n()

// findBy*/waitFor give up after 1 s by default; on this shared 2-core machine a loaded moment
// (other builds, the e2e stack) can take longer than that to render a dialog, so they wait 5 s.
configure({ asyncUtilTimeout: 5000 })

// jsdom lacks these browser APIs that Chakra UI (Ark/Zag) and next-themes use.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: vi.fn().mockImplementation((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  })
}
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub })
}
if (!window.scrollTo) window.scrollTo = () => {}
Element.prototype.scrollTo ??= () => {}
Element.prototype.scrollIntoView ??= () => {}

afterEach(() => {
  cleanup()
  // The toaster is a global store: start each test without the previous test's snackbars.
  toaster.remove()
  // The language is global too: a test that switched it must not leave the next one in French.
  if (i18n.language !== 'en') void i18n.changeLanguage('en')
  localStorage.clear()
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0].trim()
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  })
})
