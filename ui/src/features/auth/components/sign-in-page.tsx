import { Alert, Input, Link as ChakraLink, Separator, HStack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { GradientButton } from '@/components/ui/gradient-button'
import { ApiError, errorMessage } from '@/lib/api-client'
import { useAppConfig } from '@/lib/app-config'
import { useSubmitForm } from '@/lib/use-submit-form'
import { EMAIL_NOT_VERIFIED, login } from '../api/login'
import { useCompleteSignIn } from '../hooks/use-complete-sign-in'
import { type SignInValues, validateSignIn } from '../validation'
import { AuthCard } from './auth-card'
import { GoogleSignInButton } from './google-sign-in-button'
import { TEXT_LIMITS } from '@/lib/text-limits'

export function SignInPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const config = useAppConfig()
  const completeSignIn = useCompleteSignIn()
  const [serverError, setServerError] = useState<string | null>(null)
  const form = useSubmitForm<SignInValues>({ email: '', password: '' }, validateSignIn)
  const emailChanged = params.get('ref') === 'change-email'

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null)
    const email = values.email.trim()
    try {
      const { body } = await login({ email, password: values.password })
      await completeSignIn(body.accessToken)
    } catch (error) {
      if (error instanceof ApiError && error.message === EMAIL_NOT_VERIFIED) {
        navigate(`/activate/${encodeURIComponent(email)}/-1`)
        return
      }
      setServerError(errorMessage(error, t('common.genericError')))
    }
  })

  return (
    <AuthCard title={t('auth.signIn.title')} subtitle={t('auth.signIn.subtitle')}>
      <Form gap="4" onSubmit={onSubmit}>
        {emailChanged ? (
          <Alert.Root status="info" borderRadius="lg" data-testid="email-changed-info">
            <Alert.Indicator />
            <Alert.Title>{t('auth.signIn.emailChanged')}</Alert.Title>
          </Alert.Root>
        ) : null}
        <FormField label={t('auth.fields.email')} error={form.errors.email && t(form.errors.email)}>
          <Input type="email" autoComplete="email" maxLength={TEXT_LIMITS.email} {...form.field('email')} />
        </FormField>
        <FormField label={t('auth.fields.password')} error={form.errors.password && t(form.errors.password)}>
          <Input type="password" autoComplete="current-password" maxLength={TEXT_LIMITS.password} {...form.field('password')} />
        </FormField>
        <HStack justify="flex-end">
          <ChakraLink asChild fontSize="sm" color="brand.fg">
            <Link to="/authentication/verify-email">{t('auth.signIn.forgotPassword')}</Link>
          </ChakraLink>
        </HStack>
        <GradientButton type="submit" size="lg" loading={form.submitting}>
          {t('auth.signIn.submit')}
        </GradientButton>
        {serverError ? (
          <Text color="red.fg" fontSize="sm" role="alert" data-testid="auth-error">
            {serverError}
          </Text>
        ) : null}
        {config.googleClientId ? (
          <>
            <HStack>
              <Separator flex="1" />
              <Text fontSize="xs" color="fg.subtle" textTransform="uppercase">
                {t('auth.signIn.or')}
              </Text>
              <Separator flex="1" />
            </HStack>
            <GoogleSignInButton clientId={config.googleClientId} />
          </>
        ) : null}
        <Text fontSize="sm" color="fg.muted" textAlign="center">
          {t('auth.signIn.noAccount')}{' '}
          <ChakraLink asChild color="brand.fg" fontWeight="semibold">
            <Link to="/authentication/sign-up">{t('auth.signIn.toSignUp')}</Link>
          </ChakraLink>
        </Text>
      </Form>
    </AuthCard>
  )
}

