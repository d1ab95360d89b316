import { Box, Button, CloseButton, Dialog, Field, Portal, RadioGroup, Stack, Text, Textarea } from '@chakra-ui/react'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { IconCircleCheck } from '@/components/moderation/icons'
import { ApiError, errorMessage } from '@/lib/api-client'
import { fileReport, MODERATION_TEXT_MAX, reasonsFor, type ReportReason, type TargetKind } from '@/lib/moderation/api'

/** What the server's refusal means for the reporter (a translation key), or null for the server's own message. */
export function reportErrorKey(error: unknown) {
  if (!(error instanceof ApiError)) return null
  switch (error.statuscode) {
    case 409:
      return 'moderation.report.already' as const
    case 429:
      return 'moderation.report.tooMany' as const
    case 403:
      return 'moderation.report.own' as const
    case 404:
      return 'moderation.report.gone' as const
    default:
      return null
  }
}

/**
 * Reporting an NFT, a collection or a user to the moderators: one of the reasons (STOLEN for
 * NFTs only), each with a line of explanation, and a text (required for Other, at most 1,000
 * characters). After it is filed the dialog says so; moderators see who reported, the owner and
 * the public never do.
 */
export function ReportDialog({ kind, targetId, name, onClose }: { kind: TargetKind; targetId: string; name: string; onClose: () => void }) {
  const { t } = useTranslation()
  const labelId = useId()
  const [reason, setReason] = useState<ReportReason | null>(null)
  const [text, setText] = useState('')
  const [errors, setErrors] = useState<{ reason?: string; text?: string; form?: string }>({})
  const [saving, setSaving] = useState(false)
  const [done, setDone] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: typeof errors = {}
    if (!reason) found.reason = t('moderation.report.reasonRequired')
    if (reason === 'OTHER' && !text.trim()) found.text = t('moderation.report.textRequired')
    if (text.length > MODERATION_TEXT_MAX) found.text = t('moderation.textTooLong', { max: MODERATION_TEXT_MAX })
    setErrors(found)
    if (found.reason || found.text || !reason) return
    setSaving(true)
    try {
      await fileReport(kind, targetId, reason, text.trim())
      setDone(true)
    } catch (error) {
      const key = reportErrorKey(error)
      setErrors({ form: key ? t(key) : errorMessage(error, t('common.genericError')) })
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog.Root open onOpenChange={(e) => (e.open ? undefined : onClose())} placement="center" size="md" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="report-dialog">
            <Dialog.Header>
              <Dialog.Title>{t(`moderation.report.title.${kind}`)}</Dialog.Title>
            </Dialog.Header>
            {done ? (
              <>
                <Dialog.Body>
                  <Stack align="center" textAlign="center" gap="3" py="4" role="status" data-testid="report-done">
                    <Box color="green.fg">
                      <IconCircleCheck size="40" aria-hidden />
                    </Box>
                    <Text fontWeight="semibold">{t('moderation.report.sent')}</Text>
                    <Text color="fg.muted" fontSize="sm">
                      {t('moderation.report.sentText')}
                    </Text>
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Button colorPalette="brand" onClick={onClose}>
                    {t('common.close')}
                  </Button>
                </Dialog.Footer>
              </>
            ) : (
              <form onSubmit={(e) => void submit(e)} noValidate>
                <Dialog.Body>
                  <Stack gap="5">
                    <Text color="fg.muted" fontSize="sm" wordBreak="break-word">
                      {t('moderation.report.intro', { name })}
                    </Text>
                    <Stack gap="2">
                      <Text fontWeight="medium" id={labelId}>
                        {t('moderation.report.reason')}
                      </Text>
                      <RadioGroup.Root
                        value={reason}
                        onValueChange={(e) => setReason(e.value as ReportReason)}
                        aria-labelledby={labelId}
                        colorPalette="brand"
                        data-testid="report-reasons"
                      >
                        <Stack gap="3">
                          {reasonsFor(kind).map((r) => (
                            <RadioGroup.Item key={r} value={r} alignItems="flex-start" data-testid={`report-reason-${r}`}>
                              <RadioGroup.ItemHiddenInput />
                              <RadioGroup.ItemIndicator mt="0.5" />
                              <Stack gap="0" minW="0">
                                <RadioGroup.ItemText fontWeight="medium">{t(`moderation.reasons.${r}`)}</RadioGroup.ItemText>
                                <Text fontSize="sm" color="fg.muted">
                                  {t(`moderation.reasonHelp.${r}`)}
                                </Text>
                              </Stack>
                            </RadioGroup.Item>
                          ))}
                        </Stack>
                      </RadioGroup.Root>
                      {errors.reason ? (
                        <Text color="fg.error" fontSize="sm" data-testid="report-reason-error">
                          {errors.reason}
                        </Text>
                      ) : null}
                    </Stack>
                    <Field.Root invalid={!!errors.text} required={reason === 'OTHER'}>
                      <Field.Label>
                        {reason === 'OTHER' ? t('moderation.report.textRequiredLabel') : t('moderation.report.textLabel')}
                        {reason === 'OTHER' && <Field.RequiredIndicator />}
                      </Field.Label>
                      <Textarea rows={4} value={text} onChange={(e) => setText(e.target.value)} maxLength={MODERATION_TEXT_MAX} data-testid="report-text" />
                      <Box display="flex" justifyContent="space-between" w="full" gap="2">
                        {errors.text ? <Field.ErrorText>{errors.text}</Field.ErrorText> : <Field.HelperText>{t('moderation.report.textHelp')}</Field.HelperText>}
                        <Text fontSize="xs" color="fg.subtle" mt="1.5" flexShrink={0} aria-live="polite" data-testid="report-counter">
                          {text.length}/{MODERATION_TEXT_MAX}
                        </Text>
                      </Box>
                    </Field.Root>
                    {errors.form ? (
                      <Text color="fg.error" fontSize="sm" role="alert" data-testid="report-error">
                        {errors.form}
                      </Text>
                    ) : null}
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Button variant="outline" onClick={onClose}>
                    {t('common.cancel')}
                  </Button>
                  <Button type="submit" colorPalette="red" loading={saving} data-testid="report-submit">
                    {t('moderation.report.submit')}
                  </Button>
                </Dialog.Footer>
              </form>
            )}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
