import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useLocation } from 'react-router'
import { notify } from '@/components/ui/toaster'
import { useSession } from '@/lib/auth'
import { signInPath } from '@/lib/navigation'
import { useUser } from '@/lib/use-user'
import type { TranslationKey } from '@/lib/i18n'

/** Login-protected: needs the token cookie, else sign-in with callbackURL = the current path. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useSession((s) => s.token)
  const location = useLocation()
  if (!token) return <Navigate to={signInPath(`${location.pathname}${location.search}`)} replace />
  return <>{children}</>
}

/** Guest-only: a stored user profile sends the user home. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const user = useSession((s) => s.user)
  if (user) return <Navigate to="/" replace />
  return <>{children}</>
}

/**
 * Change password and change e-mail are not for users who signed in with Google: they are sent
 * home (the change e-mail page also says 'You can't change your email').
 */
export function NotGoogle({ children, messageKey }: { children: ReactNode; messageKey?: TranslationKey }) {
  const { user } = useUser()
  const { t } = useTranslation()
  const isGoogle = user?.authProvider === 'GOOGLE'
  useEffect(() => {
    if (isGoogle && messageKey) notify('warning', t(messageKey))
  }, [isGoogle, messageKey, t])
  if (isGoogle) return <Navigate to="/" replace />
  return <>{children}</>
}
