import { Input } from '@chakra-ui/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { GradientButton } from '@/components/ui/gradient-button'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSubmitForm } from '@/lib/use-submit-form'
import { verifyAccount } from '../api/verify-account'
import { useCompleteSignIn } from '../hooks/use-complete-sign-in'
import { type VerificationValues, validateVerification } from '../validation'
import { TEXT_LIMITS } from '@/lib/text-limits'

/**
 * One field 'Verification Code' with the hint, and Submit. With `autoCode` (a token from the
 * activation link) the verification is submitted at once on load.
 */
export function VerificationForm({ email, autoCode }: { email: string; autoCode?: string }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const completeSignIn = useCompleteSignIn()
  const [serverError, setServerError] = useState<string | null>(null)
  const form = useSubmitForm<VerificationValues>({ verificationCode: autoCode ?? '' }, validateVerification)

  const verify = async ({ verificationCode }: VerificationValues) => {
    setServerError(null)
    try {
      const { body, message } = await verifyAccount({ verificationCode: verificationCode.trim(), email })
      if (message) notify('success', message)
      if (body?.accessToken) await completeSignIn(body.accessToken)
      else navigate('/authentication/sign-in', { replace: true })
    } catch (error) {
      setServerError(errorMessage(error, t('common.genericError')))
    }
  }
  const onSubmit = form.handleSubmit(verify)

  const autoSubmitted = useRef(false)
  useEffect(() => {
    if (autoCode && !autoSubmitted.current) {
      autoSubmitted.current = true
      void onSubmit()
    }
    // Submitted once on load only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoCode])

  const fieldError = form.errors.verificationCode ? t(form.errors.verificationCode) : serverError
  return (
    <Form gap="5" onSubmit={onSubmit}>
      <FormField label={t('auth.verify.code')} helper={t('auth.verify.hint')} error={fieldError}>
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={TEXT_LIMITS.verificationCode} {...form.field('verificationCode')} />
      </FormField>
      <GradientButton type="submit" size="lg" loading={form.submitting}>
        {t('auth.verify.submit')}
      </GradientButton>
    </Form>
  )
}
