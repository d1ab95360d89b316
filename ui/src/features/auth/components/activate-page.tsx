import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { AuthCard } from './auth-card'
import { VerificationForm } from './verification-form'

/**
 * /activate/{email}/{token}: a code typed in, or taken from the link. The variant reached by a
 * login with an unverified e-mail uses -1 as the token (nothing to submit automatically).
 */
export function ActivatePage() {
  const { t } = useTranslation()
  const { email = '', token = '-1' } = useParams()
  const autoCode = token && token !== '-1' ? token : undefined
  return (
    <AuthCard title={t('auth.activate.title')} subtitle={t('auth.activate.subtitle', { email })}>
      <VerificationForm email={email} autoCode={autoCode} />
    </AuthCard>
  )
}
