import { Alert, HStack, Input, Link as ChakraLink, Spinner, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { GradientButton } from '@/components/ui/gradient-button'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSubmitForm } from '@/lib/use-submit-form'
import { USERNAME_AVAILABLE, USERNAME_NOT_AVAILABLE, checkUsername } from '@/lib/check-username'
import { register } from '../api/register'
import { type SignUpValues, validateSignUp } from '../validation'
import { AuthCard } from './auth-card'
import { TEXT_LIMITS } from '@/lib/text-limits'

type UsernameCheck =
  | { state: 'idle' }
  | { state: 'checking'; username: string }
  | { state: 'available' | 'taken' | 'other' | 'error'; username: string; message: string }

export function SignUpPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [check, setCheck] = useState<UsernameCheck>({ state: 'idle' })
  const [serverError, setServerError] = useState<string | null>(null)
  const form = useSubmitForm<SignUpValues>(
    { email: '', fullName: '', userName: '', password: '', confirmPassword: '' },
    validateSignUp,
  )

  /** Asks the server whether the name is free; returns true only for 'Username is Available'. */
  const runCheck = async (username: string): Promise<boolean> => {
    setCheck({ state: 'checking', username })
    try {
      const message = await checkUsername(username)
      const state = message === USERNAME_AVAILABLE ? 'available' : message === USERNAME_NOT_AVAILABLE ? 'taken' : 'other'
      setCheck({ state, username, message })
      return state === 'available'
    } catch (error) {
      setCheck({ state: 'error', username, message: errorMessage(error, t('common.genericError')) })
      return false
    }
  }

  const onUsernameBlur = () => {
    const username = form.values.userName.trim()
    if (!username) return
    if (check.state !== 'idle' && check.username === username) return
    void runCheck(username)
  }

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null)
    const username = values.userName.trim()
    const confirmed = check.state === 'available' && check.username === username ? true : await runCheck(username)
    if (!confirmed) return
    try {
      const { message } = await register({
        email: values.email.trim(),
        fullName: values.fullName.trim(),
        username,
        password: values.password,
        confirmPassword: values.confirmPassword,
      })
      if (message) notify('success', message)
      navigate(`/authentication/email-verification/${encodeURIComponent(values.email.trim())}`)
    } catch (error) {
      setServerError(errorMessage(error, t('common.genericError')))
    }
  })

  const currentName = form.values.userName.trim()
  const shown = check.state !== 'idle' && check.username === currentName ? check : null
  const usernameTaken = shown?.state === 'taken'
  const usernameColor =
    shown?.state === 'available' ? 'green.fg' : shown?.state === 'other' ? 'orange.fg' : 'red.fg'
  const usernameText =
    shown && shown.state !== 'checking'
      ? shown.state === 'available'
        ? t('auth.signUp.usernameAvailable')
        : shown.state === 'taken'
          ? t('auth.signUp.usernameTaken')
          : shown.message
      : null

  return (
    <AuthCard title={t('auth.signUp.title')} subtitle={t('auth.signUp.subtitle')}>
      <Form gap="4" onSubmit={onSubmit}>
        <FormField label={t('auth.fields.email')} error={form.errors.email && t(form.errors.email)}>
          <Input type="email" autoComplete="email" maxLength={TEXT_LIMITS.email} {...form.field('email')} />
        </FormField>
        <FormField label={t('auth.fields.fullName')} error={form.errors.fullName && t(form.errors.fullName)}>
          <Input autoComplete="name" maxLength={TEXT_LIMITS.fullName} {...form.field('fullName')} />
        </FormField>
        <FormField label={t('auth.fields.userName')} error={form.errors.userName && t(form.errors.userName)}>
          <Input autoComplete="username" maxLength={TEXT_LIMITS.username} {...form.field('userName')} onBlur={onUsernameBlur} />
          {shown?.state === 'checking' ? (
            <HStack gap="2" color="fg.muted" fontSize="sm" data-testid="username-checking">
              <Spinner size="xs" />
              <Text>{t('auth.signUp.checkingUsername')}</Text>
            </HStack>
          ) : usernameText ? (
            <Text fontSize="sm" color={usernameColor} data-testid="username-status">
              {usernameText}
            </Text>
          ) : null}
        </FormField>
        <FormField label={t('auth.fields.password')} error={form.errors.password && t(form.errors.password)}>
          <Input type="password" autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.field('password')} />
        </FormField>
        <FormField label={t('auth.fields.confirmPassword')} error={form.errors.confirmPassword && t(form.errors.confirmPassword)}>
          <Input type="password" autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.field('confirmPassword')} />
        </FormField>
        {serverError ? (
          <Alert.Root status="error" borderRadius="lg">
            <Alert.Indicator />
            <Alert.Title>{serverError}</Alert.Title>
          </Alert.Root>
        ) : null}
        <GradientButton type="submit" size="lg" loading={form.submitting} disabled={usernameTaken}>
          {t('auth.signUp.submit')}
        </GradientButton>
        <Text fontSize="sm" color="fg.muted" textAlign="center">
          {t('auth.signUp.haveAccount')}{' '}
          <ChakraLink asChild color="brand.fg" fontWeight="semibold">
            <Link to="/authentication/sign-in">{t('auth.signUp.toSignIn')}</Link>
          </ChakraLink>
        </Text>
      </Form>
    </AuthCard>
  )
}
