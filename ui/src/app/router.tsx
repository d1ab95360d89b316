import { Navigate, type RouteObject } from 'react-router'
import { NotFoundPage } from '@/components/not-found'
import { ActivatePage } from '@/features/auth/components/activate-page'
import { ChangeEmailPage } from '@/features/auth/components/change-email-page'
import { ChangePasswordPage } from '@/features/auth/components/change-password-page'
import { EmailVerificationPage } from '@/features/auth/components/email-verification-page'
import { ForgotPasswordPage } from '@/features/auth/components/forgot-password-page'
import { PasswordResetPage } from '@/features/auth/components/password-reset-page'
import { SignInPage } from '@/features/auth/components/sign-in-page'
import { SignUpPage } from '@/features/auth/components/sign-up-page'
import { TokenExpiryPage } from '@/features/auth/components/token-expiry-page'
import { BrowsePage } from '@/features/browse/components/browse-page'
import { CollectionDetailPage } from '@/features/collections/components/collection-detail-page'
import { CollectionsPage } from '@/features/collections/components/collections-page'
import { ContactPage } from '@/features/contact/components/contact-page'
import { CreateAssetPage } from '@/features/create/components/create-asset-page'
import { UpdateNftPage } from '@/features/create/components/update-nft-page'
import { FavouritesPage } from '@/features/favourites/components/favourites-page'
import { KycPage } from '@/features/kyc/components/kyc-page'
import { LandingPage } from '@/features/landing/components/landing-page'
import { MyBidsPage } from '@/features/my-bids/components/my-bids-page'
import { NftDetailPage } from '@/features/nft-detail/components/nft-detail-page'
import { EditProfilePage } from '@/features/profile/components/edit-profile-page'
import { MyProfilePage } from '@/features/profile/components/my-profile-page'
import { ProfileViewPage } from '@/features/profile/components/profile-view-page'
import { UserProfilePage } from '@/features/profile/components/user-profile-page'
import { LanguagePage } from '@/features/settings/components/language-page'
import { SettingsShell } from '@/features/settings/components/settings-shell'
import { ThemePage } from '@/features/settings/components/theme-page'
import { FaqPage } from '@/features/static-pages/components/faq-page'
import { PolicyPage } from '@/features/static-pages/components/policy-page'
import { TrendingPage } from '@/features/trending/components/trending-page'
import { GuestOnly, NotGoogle, RequireAuth } from './guards'
import { RootLayout } from './root-layout'

/**
 * The routes of accounts-wallet-shell.md and marketplace.md: browse, NFT detail, create asset,
 * update NFT, my bids, collections, profile tabs, favourites and the trending pages. The trending
 * seller and creator pages (/trending-sellers/{id}, /trending-creators/{id}) are the user's profile
 * opened on In Sale or Created.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/home', element: <LandingPage /> },
      { path: '/token-expiry', element: <TokenExpiryPage /> },
      { path: '/authentication/sign-up', element: <GuestOnly><SignUpPage /></GuestOnly> },
      { path: '/authentication/sign-in', element: <GuestOnly><SignInPage /></GuestOnly> },
      { path: '/authentication/verify-email', element: <ForgotPasswordPage /> },
      { path: '/authentication/email-verification/:email', element: <EmailVerificationPage /> },
      { path: '/activate/:email/:token', element: <GuestOnly><ActivatePage /></GuestOnly> },
      { path: '/passwordreset/:token', element: <GuestOnly><PasswordResetPage /></GuestOnly> },
      {
        path: '/profile',
        element: <RequireAuth><SettingsShell /></RequireAuth>,
        children: [
          { index: true, element: <Navigate to="/profile/user-profile" replace /> },
          { path: 'user-profile', element: <ProfileViewPage /> },
          { path: 'edit-profile', element: <EditProfilePage /> },
          { path: 'kyc-pending', element: <KycPage status="pending" /> },
          { path: 'kyc-approved', element: <KycPage status="approved" /> },
          { path: 'language', element: <LanguagePage /> },
          { path: 'theme', element: <ThemePage /> },
          { path: 'change-password', element: <NotGoogle><ChangePasswordPage /></NotGoogle> },
          { path: 'change-email', element: <NotGoogle messageKey="changeEmail.googleNotAllowed"><ChangeEmailPage /></NotGoogle> },
        ],
      },
      { path: '/myprofile', element: <RequireAuth><MyProfilePage /></RequireAuth> },
      { path: '/myprofile/collection/:id', element: <RequireAuth><CollectionDetailPage /></RequireAuth> },
      { path: '/user/:userId', element: <UserProfilePage /> },
      { path: '/explore', element: <BrowsePage key="explore" formOfSale="FIXEDPRICE" /> },
      { path: '/auction', element: <BrowsePage key="auction" formOfSale="AUCTION" /> },
      { path: '/explore/:id', element: <NftDetailPage /> },
      { path: '/auction/:id', element: <NftDetailPage /> },
      { path: '/nft/:id', element: <NftDetailPage /> },
      { path: '/user/:uid/collection/:id', element: <CollectionDetailPage /> },
      { path: '/collections', element: <CollectionsPage /> },
      { path: '/collections/collection/:id', element: <CollectionDetailPage /> },
      { path: '/collection/:id', element: <CollectionDetailPage /> },
      { path: '/trending-sellers', element: <TrendingPage key="SELLER" type="SELLER" /> },
      { path: '/trending-sellers/:id', element: <UserProfilePage defaultTab="inSale" backTo="/trending-sellers" /> },
      { path: '/trending-creators', element: <TrendingPage key="CREATOR" type="CREATOR" /> },
      { path: '/trending-creators/:id', element: <UserProfilePage defaultTab="created" backTo="/trending-creators" /> },
      { path: '/mybids', element: <RequireAuth><MyBidsPage /></RequireAuth> },
      { path: '/favourites', element: <RequireAuth><FavouritesPage /></RequireAuth> },
      { path: '/create-asset', element: <RequireAuth><CreateAssetPage /></RequireAuth> },
      { path: '/nft/update/:id', element: <RequireAuth><UpdateNftPage /></RequireAuth> },
      { path: '/privacy-policy', element: <PolicyPage kind="privacy" /> },
      { path: '/terms-and-condition', element: <PolicyPage kind="terms" /> },
      { path: '/frequently-asked-questions', element: <FaqPage /> },
      { path: '/contact-us', element: <ContactPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]
