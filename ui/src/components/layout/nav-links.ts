import type { IconType } from 'react-icons'
import { LuActivity, LuChartColumn, LuCompass, LuGavel, LuHouse, LuLayers, LuSquarePlus } from 'react-icons/lu'
import type { TranslationKey } from '@/lib/i18n'

/**
 * The main destinations, in the top bar and the drawer; the bottom bar of phones holds the five
 * without `inBottomBar: false`.
 */
export const NAV_LINKS: { to: string; labelKey: TranslationKey; icon: IconType; match: string; inBottomBar?: boolean }[] = [
  { to: '/', labelKey: 'nav.home', icon: LuHouse, match: '/' },
  { to: '/explore?type=all', labelKey: 'nav.explore', icon: LuCompass, match: '/explore' },
  { to: '/auction?type=all', labelKey: 'nav.auction', icon: LuGavel, match: '/auction' },
  { to: '/collections', labelKey: 'nav.collections', icon: LuLayers, match: '/collections' },
  { to: '/activity', labelKey: 'nav.activity', icon: LuActivity, match: '/activity', inBottomBar: false },
  { to: '/stats', labelKey: 'insight.nav', icon: LuChartColumn, match: '/stats', inBottomBar: false },
  { to: '/create-asset', labelKey: 'nav.createAsset', icon: LuSquarePlus, match: '/create-asset' },
]

export function isActive(pathname: string, match: string) {
  if (match === '/') return pathname === '/' || pathname === '/home'
  return pathname === match || pathname.startsWith(`${match}/`)
}
