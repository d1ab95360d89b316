import { Input } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { SettingsSection } from '@/components/settings-section'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { GradientButton } from '@/components/ui/gradient-button'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSubmitForm } from '@/lib/use-submit-form'
import { changeAccountPassword } from '../api/change-account-password'
import { type ChangePasswordValues, validateChangePassword } from '../validation'
import { TEXT_LIMITS } from '@/lib/text-limits'

/** Current, new and confirmed password. Success: the message for 6 s and the form resets. Failure: a warning. */
export function ChangePasswordPage() {
  const { t } = useTranslation()
  const form = useSubmitForm<ChangePasswordValues>(
    { currentPassword: '', newPassword: '', confirmNewPassword: '' },
    validateChangePassword,
  )

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { statuscode, message } = await changeAccountPassword({
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
        confirmPassword: values.confirmNewPassword,
      })
      if (statuscode === 200) {
        notify('success', message || t('changePassword.done'))
        form.reset()
      }
    } catch (error) {
      notify('warning', errorMessage(error, t('common.genericError')))
    }
  })

  return (
    <SettingsSection title={t('settings.menu.changePassword')} description={t('changePassword.description')}>
      <Form gap="4" maxW="md" onSubmit={onSubmit}>
        <FormField label={t('changePassword.currentPassword')} error={form.errors.currentPassword && t(form.errors.currentPassword)}>
          <Input type="password" autoComplete="current-password" maxLength={TEXT_LIMITS.password} {...form.field('currentPassword')} />
        </FormField>
        <FormField label={t('changePassword.newPassword')} error={form.errors.newPassword && t(form.errors.newPassword)}>
          <Input type="password" autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.field('newPassword')} />
        </FormField>
        <FormField label={t('changePassword.confirmNewPassword')} error={form.errors.confirmNewPassword && t(form.errors.confirmNewPassword)}>
          <Input type="password" autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.field('confirmNewPassword')} />
        </FormField>
        <GradientButton type="submit" alignSelf="flex-start" loading={form.submitting}>
          {t('changePassword.submit')}
        </GradientButton>
      </Form>
    </SettingsSection>
  )
}
