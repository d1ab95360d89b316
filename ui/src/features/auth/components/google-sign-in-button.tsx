import { Box } from '@chakra-ui/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { googleLogin } from '../api/google-login'
import { useCompleteSignIn } from '../hooks/use-complete-sign-in'

const GSI_SRC = 'https://accounts.google.com/gsi/client'

type GoogleId = {
  initialize: (options: { client_id: string; callback: (response: { credential: string }) => void }) => void
  renderButton: (element: HTMLElement, options: Record<string, unknown>) => void
}
declare global {
  interface Window {
    google?: { accounts: { id: GoogleId } }
  }
}

let scriptPromise: Promise<void> | null = null

/** Loads Google Identity Services once, on demand. */
function loadGsi(): Promise<void> {
  if (window.google?.accounts?.id) return Promise.resolve()
  scriptPromise ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = GSI_SRC
    script.async = true
    script.defer = true
    script.onload = () => resolve()
    script.onerror = () => {
      scriptPromise = null
      reject(new Error('Google Identity Services could not be loaded'))
    }
    document.head.appendChild(script)
  })
  return scriptPromise
}

/**
 * Google's own sign-in button (rendered only when a client id is configured). The ID token goes
 * to POST /api/auth/googlelogin; an error (e.g. 400) shows the server message in a snackbar.
 */
export function GoogleSignInButton({ clientId }: { clientId: string }) {
  const ref = useRef<HTMLDivElement>(null)
  const completeSignIn = useCompleteSignIn()
  const { t, i18n } = useTranslation()
  const completeRef = useRef(completeSignIn)
  completeRef.current = completeSignIn
  const fallbackRef = useRef(t('common.genericError'))
  fallbackRef.current = t('common.genericError')

  useEffect(() => {
    let cancelled = false
    loadGsi()
      .then(() => {
        if (cancelled || !ref.current || !window.google) return
        window.google.accounts.id.initialize({
          client_id: clientId,
          callback: async ({ credential }) => {
            try {
              const { body } = await googleLogin(credential)
              await completeRef.current(body.accessToken)
            } catch (error) {
              notify('error', errorMessage(error, fallbackRef.current))
            }
          },
        })
        window.google.accounts.id.renderButton(ref.current, {
          theme: 'outline',
          size: 'large',
          shape: 'pill',
          width: 320,
          locale: i18n.language,
        })
      })
      .catch((error) => console.error(error))
    return () => {
      cancelled = true
    }
  }, [clientId, i18n.language])

  return <Box ref={ref} display="flex" justifyContent="center" minH="11" data-testid="google-sign-in" />
}
