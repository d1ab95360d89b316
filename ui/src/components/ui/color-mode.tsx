import { ThemeProvider, useTheme } from 'next-themes'
import type { ReactNode } from 'react'

/** The stored choice is 'dark' or 'light' under the local storage key `theme`. */
export type ColorMode = 'light' | 'dark'
export const THEME_STORAGE_KEY = 'theme'

export function ColorModeProvider({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider
      attribute="class"
      storageKey={THEME_STORAGE_KEY}
      defaultTheme="dark"
      themes={['light', 'dark']}
      enableSystem={false}
      disableTransitionOnChange
    >
      {children}
    </ThemeProvider>
  )
}

export function useColorMode() {
  const { resolvedTheme, setTheme } = useTheme()
  const colorMode: ColorMode = resolvedTheme === 'light' ? 'light' : 'dark'
  return {
    colorMode,
    setColorMode: (mode: ColorMode) => setTheme(mode),
    toggleColorMode: () => setTheme(colorMode === 'dark' ? 'light' : 'dark'),
  }
}
