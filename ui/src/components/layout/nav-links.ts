import type { IconType } from 'react-icons'
import { LuCompass, LuGavel, LuHouse, LuLayers, LuSquarePlus } from 'react-icons/lu'

/** The five main destinations, in the top bar, the bottom bar and the drawer. */
export const NAV_LINKS: { to: string; labelKey: string; icon: IconType; match: string }[] = [
  { to: '/', labelKey: 'nav.home', icon: LuHouse, match: '/' },
  { to: '/explore?type=all', labelKey: 'nav.explore', icon: LuCompass, match: '/explore' },
  { to: '/auction?type=all', labelKey: 'nav.auction', icon: LuGavel, match: '/auction' },
  { to: '/collections', labelKey: 'nav.collections', icon: LuLayers, match: '/collections' },
  { to: '/create-asset', labelKey: 'nav.createAsset', icon: LuSquarePlus, match: '/create-asset' },
]

export function isActive(pathname: string, match: string) {
  if (match === '/') return pathname === '/' || pathname === '/home'
  return pathname === match || pathname.startsWith(`${match}/`)
}
