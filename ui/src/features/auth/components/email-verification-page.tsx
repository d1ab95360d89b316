import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { AuthCard } from './auth-card'
import { VerificationForm } from './verification-form'

/** /authentication/email-verification/{email}: reached after sign-up. */
export function EmailVerificationPage() {
  const { t } = useTranslation()
  const { email = '' } = useParams()
  return (
    <AuthCard title={t('auth.emailVerification.title')} subtitle={t('auth.emailVerification.subtitle', { email })}>
      <VerificationForm email={email} />
    </AuthCard>
  )
}
