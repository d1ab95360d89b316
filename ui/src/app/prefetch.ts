/**
 * The first screen's calls and top pictures, started while the startup loader shows (the spec's
 * 2 seconds): when the loader ends, the screen renders with its data and its first pictures
 * already here instead of only then asking for them. Screens not listed load as before.
 */
const FIRST_SCREENS: [RegExp, () => Promise<{ prefetch: (url: URL) => void }>][] = [
  [/^\/(home)?$/, () => import('@/features/landing/prefetch')],
  [/^\/(explore|auction)$/, () => import('@/features/browse/prefetch')],
]

export function prefetchFirstScreen(url: URL = new URL(window.location.href)) {
  const screen = FIRST_SCREENS.find(([path]) => path.test(url.pathname))
  screen?.[1]()
    .then((module) => module.prefetch(url))
    .catch((error) => console.error('Could not prefetch the first screen', error))
}
