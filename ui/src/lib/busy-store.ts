import { create } from 'zustand'

/** The full-screen busy overlay: a message while a long action runs (e.g. 'Saving Profile...'). */
type BusyState = {
  message: string | null
  show: (message: string) => void
  hide: () => void
}

export const useBusyStore = create<BusyState>()((set) => ({
  message: null,
  show: (message) => set({ message }),
  hide: () => set({ message: null }),
}))
