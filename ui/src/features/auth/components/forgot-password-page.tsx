import { Alert, Input, Link as ChakraLink, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { GradientButton } from '@/components/ui/gradient-button'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSubmitForm } from '@/lib/use-submit-form'
import { resetAccountPassword } from '../api/reset-account-password'
import { type ForgotPasswordValues, validateForgotPassword } from '../validation'
import { AuthCard } from './auth-card'
import { TEXT_LIMITS } from '@/lib/text-limits'

/** /authentication/verify-email: one e-mail field; the server mails a password reset link. */
export function ForgotPasswordPage() {
  const { t } = useTranslation()
  const [sent, setSent] = useState<string | null>(null)
  const [serverError, setServerError] = useState<string | null>(null)
  const form = useSubmitForm<ForgotPasswordValues>({ email: '' }, validateForgotPassword)

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setServerError(null)
    try {
      const { message } = await resetAccountPassword(email.trim())
      const text = message || t('auth.forgot.sent')
      setSent(text)
      notify('success', text)
    } catch (error) {
      setServerError(errorMessage(error, t('common.genericError')))
    }
  })

  return (
    <AuthCard title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')}>
      <Form gap="4" onSubmit={onSubmit}>
        <FormField label={t('auth.fields.email')} error={form.errors.email ? t(form.errors.email) : serverError}>
          <Input type="email" autoComplete="email" maxLength={TEXT_LIMITS.email} {...form.field('email')} />
        </FormField>
        {sent ? (
          <Alert.Root status="success" borderRadius="lg">
            <Alert.Indicator />
            <Alert.Title>{sent}</Alert.Title>
          </Alert.Root>
        ) : null}
        <GradientButton type="submit" size="lg" loading={form.submitting}>
          {t('auth.forgot.submit')}
        </GradientButton>
        <Text fontSize="sm" textAlign="center">
          <ChakraLink asChild color="brand.fg">
            <Link to="/authentication/sign-in">{t('auth.forgot.backToSignIn')}</Link>
          </ChakraLink>
        </Text>
      </Form>
    </AuthCard>
  )
}
