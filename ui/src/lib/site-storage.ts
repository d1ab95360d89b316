/**
 * The site's local storage, or storage in memory when the browser refuses it: with cookies and
 * site data blocked (a setting, or the page framed by another site) merely reading
 * `window.localStorage` throws a SecurityError, which at start-up would leave the page blank.
 * Everything the UI keeps (session profile, cart, wallet, dev wallet, cached deck, language)
 * goes through `siteStorage`; what is kept in memory lasts as long as the page.
 */

/** Storage for one page: what `siteStorage` falls back to. */
export class MemoryStorage implements Storage {
  private items = new Map<string, string>()
  get length() {
    return this.items.size
  }
  clear() {
    this.items.clear()
  }
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value))
  }
}

const PROBE_KEY = '__storage_probe__'

/** `get()`'s storage if it can be read and written, else null. */
export function usableStorage(get: () => Storage | null | undefined): Storage | null {
  try {
    const storage = get()
    if (!storage) return null
    storage.setItem(PROBE_KEY, PROBE_KEY)
    storage.removeItem(PROBE_KEY)
    return storage
  } catch {
    return null
  }
}

let chosen: { storage: Storage; blocked: boolean } | undefined

function choice() {
  if (!chosen) {
    const real = usableStorage(() => window.localStorage)
    chosen = real ? { storage: real, blocked: false } : { storage: new MemoryStorage(), blocked: true }
  }
  return chosen
}

/** Cookies refused (the token cookie would not be kept). */
function cookiesBlocked(): boolean {
  try {
    return navigator.cookieEnabled === false || (document.cookie, false)
  } catch {
    return true
  }
}

/** Whether the browser refuses this site's storage (local storage or cookies): signing in needs it. */
export function siteStorageBlocked(): boolean {
  return choice().blocked || cookiesBlocked()
}

/** Local storage that never throws: the real one, or memory for this page (see above). */
export const siteStorage = {
  getItem(key: string): string | null {
    try {
      return choice().storage.getItem(key)
    } catch {
      return null
    }
  },
  setItem(key: string, value: string): void {
    try {
      choice().storage.setItem(key, value)
    } catch {
      // Full or refused since: this value is not kept.
    }
  },
  removeItem(key: string): void {
    try {
      choice().storage.removeItem(key)
    } catch {
      // Refused since: nothing to remove.
    }
  },
}
