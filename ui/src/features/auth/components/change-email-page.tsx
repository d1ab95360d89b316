import { Button, HStack, Input, Steps, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { SettingsSection } from '@/components/settings-section'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { GradientButton } from '@/components/ui/gradient-button'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { clearSession } from '@/lib/auth'
import { signInPath } from '@/lib/navigation'
import { useSubmitForm } from '@/lib/use-submit-form'
import { useUser } from '@/lib/use-user'
import { requestEmailChange } from '../api/change-email'
import { verifyEmailChange } from '../api/verify-email-change'
import { type ChangeEmailValues, type OtpValues, validateChangeEmail, validateOtp } from '../validation'
import { TEXT_LIMITS } from '@/lib/text-limits'

/**
 * Step 1: the new e-mail (changedEmail), a code is sent. Step 2: the numeric code (otp).
 * Success: 'Login again with new email and same credentials', logout, sign-in with ref=change-email.
 * Server errors appear under the field.
 */
export function ChangeEmailPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { user } = useUser()
  const [step, setStep] = useState<0 | 1>(0)
  const [serverError, setServerError] = useState<string | null>(null)
  const emailForm = useSubmitForm<ChangeEmailValues>({ changedEmail: '' }, validateChangeEmail)
  const otpForm = useSubmitForm<OtpValues>({ otp: '' }, validateOtp)

  const requestCode = emailForm.handleSubmit(async ({ changedEmail }) => {
    setServerError(null)
    try {
      const { statuscode, message } = await requestEmailChange(changedEmail.trim())
      if (statuscode === 200) {
        if (message) notify('info', message)
        setStep(1)
      }
    } catch (error) {
      setServerError(errorMessage(error, t('common.genericError')))
    }
  })

  const verify = otpForm.handleSubmit(async ({ otp }) => {
    setServerError(null)
    try {
      await verifyEmailChange({ newEmail: emailForm.values.changedEmail.trim(), verificationCode: otp.trim() })
      notify('success', t('changeEmail.done'))
      clearSession()
      navigate(signInPath(undefined, 'change-email'), { replace: true })
    } catch (error) {
      setServerError(errorMessage(error, t('common.genericError')))
    }
  })

  return (
    <SettingsSection title={t('settings.menu.changeEmail')} description={t('changeEmail.description')}>
      <Steps.Root step={step} count={2} size="sm" maxW="md" colorPalette="brand">
        <Steps.List>
          {[t('changeEmail.stepEmail'), t('changeEmail.stepCode')].map((title, index) => (
            <Steps.Item key={title} index={index}>
              <Steps.Indicator />
              <Steps.Title>{title}</Steps.Title>
              <Steps.Separator />
            </Steps.Item>
          ))}
        </Steps.List>
      </Steps.Root>
      {user?.email ? (
        <Text fontSize="sm" color="fg.muted">
          {t('changeEmail.current', { email: user.email })}
        </Text>
      ) : null}
      {step === 0 ? (
        <Form gap="4" maxW="md" onSubmit={requestCode}>
          <FormField
            label={t('changeEmail.newEmail')}
            error={emailForm.errors.changedEmail ? t(emailForm.errors.changedEmail) : serverError}
          >
            <Input type="email" autoComplete="email" maxLength={TEXT_LIMITS.email} {...emailForm.field('changedEmail')} />
          </FormField>
          <GradientButton type="submit" alignSelf="flex-start" loading={emailForm.submitting}>
            {t('changeEmail.sendCode')}
          </GradientButton>
        </Form>
      ) : (
        <Form gap="4" maxW="md" onSubmit={verify}>
          <Text fontSize="sm">{t('changeEmail.codeSent', { email: emailForm.values.changedEmail })}</Text>
          <FormField label={t('changeEmail.otp')} error={otpForm.errors.otp ? t(otpForm.errors.otp) : serverError}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={TEXT_LIMITS.verificationCode} {...otpForm.field('otp')} />
          </FormField>
          <HStack>
            <GradientButton type="submit" loading={otpForm.submitting}>
              {t('changeEmail.verify')}
            </GradientButton>
            <Button
              variant="ghost"
              onClick={() => {
                setServerError(null)
                otpForm.reset()
                setStep(0)
              }}
            >
              {t('common.back')}
            </Button>
          </HStack>
        </Form>
      )}
    </SettingsSection>
  )
}
