import { Box, Flex } from '@chakra-ui/react'
import { Suspense, lazy, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Outlet, useLocation, useNavigate } from 'react-router'
import { BottomBar } from '@/components/layout/bottom-bar'
import { LiveStream } from '@/features/live/components/live-stream'
import { NotificationBell } from '@/features/live/components/notification-bell'
import { Footer } from '@/components/layout/footer'
import { StorageNotice } from '@/components/layout/storage-notice'
import { TopBar } from '@/components/layout/top-bar'
import { NetworkBanner } from '@/features/wallet/components/network-banner'
import { WalletButton } from '@/features/wallet/components/wallet-button'
import { WalletPanel } from '@/features/wallet/components/wallet-panel'
import { WalletSessionSync } from '@/features/wallet/components/wallet-session-sync'
import { useSession } from '@/lib/auth'
import { registerNavigator, tokenExpiryPath } from '@/lib/navigation'
import { useUser } from '@/lib/use-user'
import { useWalletStore } from '@/lib/wallet-store'
import { UserMenu } from './user-menu'
import { CartButton } from '@/features/cart/components/cart-button'
import { useCartStore } from '@/lib/cart/store'

/** The wallet chooser and the wallets' code: downloaded the first time someone opens it. */
const WalletDialog = lazy(() => import('@/features/wallet/components/wallet-dialog').then((m) => ({ default: m.WalletDialog })))
/** The drawer of narrow screens (and the dialog code under it): downloaded the first time it opens. */
const MobileDrawer = lazy(() => import('@/components/layout/mobile-drawer').then((m) => ({ default: m.MobileDrawer })))
/** The cart drawer: downloaded the first time it opens. */
const CartDrawer = lazy(() => import('@/features/cart/components/cart-drawer').then((m) => ({ default: m.CartDrawer })))

/** The shell around every screen: top bar, network banner, page, footer, bottom bar and drawer. */
export function RootLayout() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const token = useSession((s) => s.token)
  useUser()
  const [drawerOpen, setDrawerOpen] = useState(false)
  const [drawerWanted, setDrawerWanted] = useState(false)
  const walletDialogOpen = useWalletStore((s) => s.dialogOpen)
  const [walletDialogWanted, setWalletDialogWanted] = useState(walletDialogOpen)
  const cartOpen = useCartStore((s) => s.open)
  const [cartWanted, setCartWanted] = useState(cartOpen)
  if (cartOpen && !cartWanted) setCartWanted(true)

  // The wallet dialog replaces the drawer (it is opened from the drawer's wallet panel).
  useEffect(() => {
    if (!walletDialogOpen) return
    setDrawerOpen(false)
    setWalletDialogWanted(true)
  }, [walletDialogOpen])

  useEffect(() => {
    registerNavigator((to, options) => void navigate(to, options))
    return () => registerNavigator(null)
  }, [navigate])

  useEffect(() => {
    window.scrollTo(0, 0)
  }, [pathname])

  const signedIn = !!token
  return (
    <Flex direction="column" minH="100vh">
      <WalletSessionSync />
      <LiveStream />
      <TopBar signedIn={signedIn} noticesSlot={<NotificationBell />} walletSlot={<WalletButton />} userMenuSlot={<UserMenu />} cartSlot={<CartButton />} onOpenDrawer={() => {
          setDrawerWanted(true)
          setDrawerOpen(true)
        }} />
      <StorageNotice />
      <NetworkBanner />
      <Box as="main" flex="1">
        <Outlet />
      </Box>
      <Footer />
      <BottomBar />
      {drawerWanted && (
        <Suspense fallback={null}>
          <MobileDrawer
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            signedIn={signedIn}
            accountLinks={[
              { to: '/notifications', label: t('notices.title') },
              { to: '/mybids', label: t('nav.allBids') },
              { to: '/myoffers', label: t('offers.myOffers') },
              { to: '/favourites', label: t('nav.favourites') },
              { to: '/myprofile', label: t('nav.myProfile') },
              { to: '/profile/user-profile', label: t('nav.settings') },
            ]}
            walletSlot={<WalletPanel />}
            onLogout={() => {
              setDrawerOpen(false)
              navigate(tokenExpiryPath())
            }}
          />
        </Suspense>
      )}
      {cartWanted && (
        <Suspense fallback={null}>
          <CartDrawer />
        </Suspense>
      )}
      {walletDialogWanted && (
        <Suspense fallback={null}>
          <WalletDialog />
        </Suspense>
      )}
    </Flex>
  )
}
