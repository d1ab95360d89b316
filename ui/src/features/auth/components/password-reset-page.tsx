import { Input, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { GradientButton } from '@/components/ui/gradient-button'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSubmitForm } from '@/lib/use-submit-form'
import { resetPassword } from '../api/reset-password'
import { type NewPasswordValues, validateNewPassword } from '../validation'
import { AuthCard } from './auth-card'
import { TEXT_LIMITS } from '@/lib/text-limits'

/** /passwordreset/{token}: a new password and its confirmation; then sign-in. */
export function PasswordResetPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { token = '' } = useParams()
  const [serverError, setServerError] = useState<string | null>(null)
  const form = useSubmitForm<NewPasswordValues>({ password: '', confirmPassword: '' }, validateNewPassword)

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null)
    try {
      const { message } = await resetPassword({
        resetPasswordToken: token,
        newPassword: values.password,
        confirmPassword: values.confirmPassword,
      })
      if (message) notify('success', message)
      navigate('/authentication/sign-in', { replace: true })
    } catch (error) {
      setServerError(errorMessage(error, t('common.genericError')))
    }
  })

  return (
    <AuthCard title={t('auth.reset.title')} subtitle={t('auth.reset.subtitle')}>
      <Form gap="4" onSubmit={onSubmit}>
        <FormField label={t('auth.fields.newPassword')} error={form.errors.password && t(form.errors.password)}>
          <Input type="password" autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.field('password')} />
        </FormField>
        <FormField label={t('auth.fields.confirmPassword')} error={form.errors.confirmPassword && t(form.errors.confirmPassword)}>
          <Input type="password" autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.field('confirmPassword')} />
        </FormField>
        {serverError ? (
          <Text color="red.fg" fontSize="sm" role="alert">
            {serverError}
          </Text>
        ) : null}
        <GradientButton type="submit" size="lg" loading={form.submitting}>
          {t('auth.reset.submit')}
        </GradientButton>
      </Form>
    </AuthCard>
  )
}
