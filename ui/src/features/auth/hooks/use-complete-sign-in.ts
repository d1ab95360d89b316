import { useNavigate, useSearchParams } from 'react-router'
import { useSession } from '@/lib/auth'
import { fetchMyProfile } from '@/lib/use-user'

/**
 * After login, verification or Google sign-in: store the token (cookie, 1 day), go to the
 * callbackURL if present (else home), then load and store the profile.
 */
export function useCompleteSignIn() {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  return async (accessToken: string, fallback = '/') => {
    useSession.getState().setToken(accessToken)
    const callback = params.get('callbackURL')
    navigate(callback && callback.startsWith('/') ? callback : fallback, { replace: true })
    try {
      await fetchMyProfile()
    } catch (error) {
      console.error('Could not load the profile after sign-in', error)
    }
  }
}
