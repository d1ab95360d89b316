import { Box, Button, CloseButton, Dialog, Field, Portal, Stack, Text, Textarea } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { errorMessage } from '@/lib/api-client'
import { MODERATION_TEXT_MAX } from '@/lib/moderation/api'

/**
 * A decision's (or an appeal's) words before it is sent: hide, restore, dismiss and remove a
 * badge ask the reason the owner will read; an appeal asks what the owner has to say. `submit`
 * runs the call; its error stays in the dialog, success closes it.
 */
export function ReasonDialog({
  title,
  text,
  label,
  submitLabel,
  danger,
  required = true,
  submit,
  onClose,
}: {
  title: string
  text?: string
  label: string
  submitLabel: string
  danger?: boolean
  required?: boolean
  submit: (reason: string) => Promise<void>
  onClose: () => void
}) {
  const { t } = useTranslation()
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [formError, setFormError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const value = reason.trim()
    if (required && !value) {
      setError(t('moderation.reasonRequired'))
      return
    }
    if (value.length > MODERATION_TEXT_MAX) {
      setError(t('moderation.textTooLong', { max: MODERATION_TEXT_MAX }))
      return
    }
    setError(null)
    setFormError(null)
    setSaving(true)
    try {
      await submit(value)
      onClose()
    } catch (err) {
      setFormError(errorMessage(err, t('common.genericError')))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog.Root open onOpenChange={(e) => (e.open ? undefined : onClose())} placement="center" size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="reason-dialog">
            <form onSubmit={(e) => void onSubmit(e)} noValidate>
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  {text ? (
                    <Text color="fg.muted" fontSize="sm" wordBreak="break-word">
                      {text}
                    </Text>
                  ) : null}
                  <Field.Root invalid={!!error} required={required}>
                    <Field.Label>
                      {label}
                      {required && <Field.RequiredIndicator />}
                    </Field.Label>
                    <Textarea rows={4} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={MODERATION_TEXT_MAX} autoFocus data-testid="reason-text" />
                    <Box display="flex" justifyContent="space-between" w="full" gap="2">
                      {error ? <Field.ErrorText>{error}</Field.ErrorText> : <span />}
                      <Text fontSize="xs" color="fg.subtle" mt="1.5" flexShrink={0}>
                        {reason.length}/{MODERATION_TEXT_MAX}
                      </Text>
                    </Box>
                  </Field.Root>
                  {formError ? (
                    <Text color="fg.error" fontSize="sm" role="alert" data-testid="reason-error">
                      {formError}
                    </Text>
                  ) : null}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" colorPalette={danger ? 'red' : 'brand'} loading={saving} data-testid="reason-submit">
                  {submitLabel}
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
