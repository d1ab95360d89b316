import { Center, Spinner, Stack, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { clearSession } from '@/lib/auth'
import { signInPath } from '@/lib/navigation'

/** How long 'Token Expired. Logging Out...' stays before sign-in. */
export const TOKEN_EXPIRY_DELAY_MS = 1500

/** /token-expiry?callbackURL=path: logs out, says so, then goes to sign-in with that callback. */
export function TokenExpiryPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const callback = params.get('callbackURL') ?? undefined

  useEffect(() => {
    clearSession()
    const timer = window.setTimeout(() => navigate(signInPath(callback), { replace: true }), TOKEN_EXPIRY_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [callback, navigate])

  return (
    <Center minH="60vh">
      <Stack align="center" gap="4">
        <Spinner size="lg" color="brand.solid" />
        <Text fontSize="lg" fontWeight="semibold" data-testid="token-expiry-message">
          {t('auth.tokenExpired')}
        </Text>
      </Stack>
    </Center>
  )
}
