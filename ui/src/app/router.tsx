import type { ComponentType, ReactNode } from 'react'
import { Navigate, type RouteObject } from 'react-router'
import { NotFoundPage } from '@/components/not-found'
import { GuestOnly, NotGoogle, RequireAuth } from './guards'
import { RootLayout } from './root-layout'

/**
 * A route whose screen is its own chunk, loaded when the route is first matched: a visitor
 * downloads the shell and the screen they open, not every screen. The router starts loading the
 * first screen as soon as it is created, during the startup loader.
 */
function screen(load: () => Promise<ComponentType>, wrap: (page: ReactNode) => ReactNode = (page) => page): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const Page = await load()
      return { element: wrap(<Page />) }
    },
  }
}

const login = (page: ReactNode) => <RequireAuth>{page}</RequireAuth>
const guest = (page: ReactNode) => <GuestOnly>{page}</GuestOnly>

const landing = () => import('@/features/landing/components/landing-page').then((m) => m.LandingPage)
const nftDetail = () => import('@/features/nft-detail/components/nft-detail-page').then((m) => m.NftDetailPage)
const collectionDetail = () => import('@/features/collections/components/collection-detail-page').then((m) => m.CollectionDetailPage)

/** The routes of accounts-wallet-shell.md and marketplace.md. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', ...screen(landing) },
      { path: '/home', ...screen(landing) },
      { path: '/token-expiry', ...screen(() => import('@/features/auth/components/token-expiry-page').then((m) => m.TokenExpiryPage)) },
      { path: '/authentication/sign-up', ...screen(() => import('@/features/auth/components/sign-up-page').then((m) => m.SignUpPage), guest) },
      { path: '/authentication/sign-in', ...screen(() => import('@/features/auth/components/sign-in-page').then((m) => m.SignInPage), guest) },
      { path: '/authentication/verify-email', ...screen(() => import('@/features/auth/components/forgot-password-page').then((m) => m.ForgotPasswordPage)) },
      {
        path: '/authentication/email-verification/:email',
        ...screen(() => import('@/features/auth/components/email-verification-page').then((m) => m.EmailVerificationPage)),
      },
      { path: '/activate/:email/:token', ...screen(() => import('@/features/auth/components/activate-page').then((m) => m.ActivatePage), guest) },
      { path: '/passwordreset/:token', ...screen(() => import('@/features/auth/components/password-reset-page').then((m) => m.PasswordResetPage), guest) },
      {
        path: '/profile',
        ...screen(() => import('@/features/settings/components/settings-shell').then((m) => m.SettingsShell), login),
        children: [
          { index: true, element: <Navigate to="/profile/user-profile" replace /> },
          { path: 'user-profile', ...screen(() => import('@/features/profile/components/profile-view-page').then((m) => m.ProfileViewPage)) },
          { path: 'edit-profile', ...screen(() => import('@/features/profile/components/edit-profile-page').then((m) => m.EditProfilePage)) },
          { path: 'kyc-pending', ...screen(() => import('@/features/kyc/components/kyc-page').then((m) => () => <m.KycPage status="pending" />)) },
          { path: 'kyc-approved', ...screen(() => import('@/features/kyc/components/kyc-page').then((m) => () => <m.KycPage status="approved" />)) },
          { path: 'language', ...screen(() => import('@/features/settings/components/language-page').then((m) => m.LanguagePage)) },
          { path: 'theme', ...screen(() => import('@/features/settings/components/theme-page').then((m) => m.ThemePage)) },
          { path: 'api-keys', ...screen(() => import('@/features/settings/components/api-keys-page').then((m) => m.ApiKeysPage)) },
          { path: 'webhooks', ...screen(() => import('@/features/settings/components/webhooks-page').then((m) => m.WebhooksPage)) },
          { path: 'privacy', ...screen(() => import('@/features/settings/components/privacy-page').then((m) => m.PrivacyPage)) },
          {
            path: 'change-password',
            ...screen(
              () => import('@/features/auth/components/change-password-page').then((m) => m.ChangePasswordPage),
              (page) => <NotGoogle>{page}</NotGoogle>,
            ),
          },
          {
            path: 'change-email',
            ...screen(
              () => import('@/features/auth/components/change-email-page').then((m) => m.ChangeEmailPage),
              (page) => <NotGoogle messageKey="changeEmail.googleNotAllowed">{page}</NotGoogle>,
            ),
          },
        ],
      },
      { path: '/myprofile', ...screen(() => import('@/features/profile/components/my-profile-page').then((m) => m.MyProfilePage), login) },
      { path: '/myprofile/collection/:id', ...screen(collectionDetail, login) },
      { path: '/user/:userId', ...screen(() => import('@/features/profile/components/user-profile-page').then((m) => m.UserProfilePage)) },
      { path: '/user/:uid/collection/:id', ...screen(collectionDetail) },
      { path: '/explore', ...screen(() => import('@/features/browse/components/browse-page').then((m) => () => <m.BrowsePage key="explore" formOfSale="FIXEDPRICE" />)) },
      { path: '/auction', ...screen(() => import('@/features/browse/components/browse-page').then((m) => () => <m.BrowsePage key="auction" formOfSale="AUCTION" />)) },
      { path: '/explore/:id', ...screen(nftDetail) },
      { path: '/auction/:id', ...screen(nftDetail) },
      { path: '/nft/:id', ...screen(nftDetail) },
      { path: '/collections', ...screen(() => import('@/features/collections/components/collections-page').then((m) => m.CollectionsPage)) },
      { path: '/stats', ...screen(() => import('@/features/insight/components/stats-page').then((m) => m.StatsPage)) },
      { path: '/activity', ...screen(() => import('@/features/activity/components/activity-page').then((m) => m.ActivityPage)) },
      { path: '/collections/collection/:id', ...screen(collectionDetail) },
      { path: '/collection/:id', ...screen(collectionDetail) },
      { path: '/trending-sellers', ...screen(() => import('@/features/trending/components/trending-page').then((m) => () => <m.TrendingPage key="SELLER" type="SELLER" />)) },
      // A trending seller's or creator's page is the user's real profile, opened on the tab that made them trend.
      {
        path: '/trending-sellers/:id',
        ...screen(() => import('@/features/profile/components/user-profile-page').then((m) => () => <m.UserProfilePage defaultTab="inSale" backTo="/trending-sellers" />)),
      },
      { path: '/trending-creators', ...screen(() => import('@/features/trending/components/trending-page').then((m) => () => <m.TrendingPage key="CREATOR" type="CREATOR" />)) },
      {
        path: '/trending-creators/:id',
        ...screen(() => import('@/features/profile/components/user-profile-page').then((m) => () => <m.UserProfilePage defaultTab="created" backTo="/trending-creators" />)),
      },
      { path: '/notifications', ...screen(() => import('@/features/live/components/notifications-page').then((m) => m.NotificationsPage), login) },
      { path: '/mybids', ...screen(() => import('@/features/my-bids/components/my-bids-page').then((m) => m.MyBidsPage), login) },
      { path: '/myoffers', ...screen(() => import('@/features/offers/components/my-offers-page').then((m) => m.MyOffersPage), login) },
      { path: '/favourites', ...screen(() => import('@/features/favourites/components/favourites-page').then((m) => m.FavouritesPage), login) },
      { path: '/create-asset', ...screen(() => import('@/features/create/components/create-asset-page').then((m) => m.CreateAssetPage), login) },
      { path: '/nft/update/:id', ...screen(() => import('@/features/create/components/update-nft-page').then((m) => m.UpdateNftPage), login) },
      { path: '/privacy-policy', ...screen(() => import('@/features/static-pages/components/policy-page').then((m) => () => <m.PolicyPage kind="privacy" />)) },
      { path: '/terms-and-condition', ...screen(() => import('@/features/static-pages/components/policy-page').then((m) => () => <m.PolicyPage kind="terms" />)) },
      { path: '/frequently-asked-questions', ...screen(() => import('@/features/static-pages/components/faq-page').then((m) => m.FaqPage)) },
      { path: '/moderation', ...screen(() => import('@/features/moderation/components/moderation-page').then((m) => m.ModerationPage), login) },
      { path: '/transparency', ...screen(() => import('@/features/moderation/components/transparency-page').then((m) => m.TransparencyPage)) },
      { path: '/contact-us', ...screen(() => import('@/features/contact/components/contact-page').then((m) => m.ContactPage)) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]
