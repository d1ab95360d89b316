import { Badge, Box, Button, Checkbox, chakra, CloseButton, Dialog, Flex, HStack, Input, Portal, SimpleGrid, Skeleton, Stack, Text, Textarea } from '@chakra-ui/react'
import type { TFunction } from 'i18next'
import { useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LuCheck, LuCopy, LuHistory, LuPencil, LuPlus, LuSend, LuTrash2, LuWebhook } from 'react-icons/lu'
import { ConfirmDialog } from '@/components/nft/confirm-dialog'
import { SettingsSection } from '@/components/settings-section'
import { FormField } from '@/components/ui/form-field'
import { notify } from '@/components/ui/toaster'
import { ApiError, errorMessage } from '@/lib/api-client'
import { formatDateTime } from '@/lib/format'
import { NOTICE_KINDS, type NoticeKind } from '@/lib/live/stream'
import {
  TOPIC_PATTERN,
  WEBHOOK_TOPICS_MAX,
  WEBHOOK_URL_MAX,
  WEBHOOKS_MAX,
  type CreatedEndpoint,
  type DeliveryAttempt,
  type WebhookEndpoint,
  parseTopics,
  useWebhookActions,
  useWebhookDeliveries,
  useWebhooks,
} from '../api/webhooks'

/** /profile/webhooks: the caller's webhook endpoints: list, register (secret shown once), edit, delete, test, the delivery log, redeliver. */
export function WebhooksPage() {
  const { t } = useTranslation()
  const { data: endpoints, error, isLoading } = useWebhooks()
  const { remove, sendTest } = useWebhookActions()
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null)
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null)
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null)
  const [testing, setTesting] = useState<string | null>(null)

  const onDelete = async (endpoint: WebhookEndpoint) => {
    try {
      await remove(endpoint.endpointId)
      notify('success', t('webhooks.deleted', { url: endpoint.url }))
    } catch (err) {
      notify('error', errorMessage(err, t('common.genericError')))
    }
  }

  const onTest = async (endpoint: WebhookEndpoint) => {
    setTesting(endpoint.endpointId)
    try {
      const attempt = await sendTest(endpoint.endpointId)
      if (attempt.ok) notify('success', t('webhooks.testDelivered', { status: attempt.status, ms: attempt.latencyMs }))
      else notify('error', t('webhooks.testFailed', { why: attemptOutcome(attempt, t) }))
    } catch (err) {
      notify('error', errorMessage(err, t('common.genericError')))
    } finally {
      setTesting(null)
    }
  }

  const full = (endpoints?.length ?? 0) >= WEBHOOKS_MAX
  // The endpoint the log shows, as the list has it now (its state moves after a redelivery).
  const logged = logOf ? (endpoints?.find((e) => e.endpointId === logOf.endpointId) ?? logOf) : null

  return (
    <SettingsSection title={t('settings.menu.webhooks')} description={t('webhooks.description')}>
      <Flex justify="flex-end" align="center" gap="3" wrap="wrap">
        {full ? (
          <Text fontSize="sm" color="fg.muted">
            {t('webhooks.limit', { max: WEBHOOKS_MAX })}
          </Text>
        ) : null}
        <Button colorPalette="brand" onClick={() => setEditing('new')} disabled={full} data-testid="webhook-create">
          <LuPlus /> {t('webhooks.create')}
        </Button>
      </Flex>
      {isLoading ? (
        <Stack gap="3">
          <Skeleton h="24" borderRadius="xl" />
          <Skeleton h="24" borderRadius="xl" />
        </Stack>
      ) : error ? (
        <Text color="fg.error">{errorMessage(error, t('common.genericError'))}</Text>
      ) : !endpoints?.length ? (
        <Stack align="center" textAlign="center" gap="2" py="6" color="fg.muted" data-testid="webhooks-empty">
          <LuWebhook size="32" />
          <Text>{t('webhooks.empty')}</Text>
        </Stack>
      ) : (
        <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" data-testid="webhooks">
          {endpoints.map((endpoint) => (
            <EndpointRow
              key={endpoint.endpointId}
              endpoint={endpoint}
              testing={testing === endpoint.endpointId}
              onTest={() => void onTest(endpoint)}
              onLog={() => setLogOf(endpoint)}
              onEdit={() => setEditing(endpoint)}
              onDelete={() => setDeleting(endpoint)}
            />
          ))}
        </Stack>
      )}
      <Text fontSize="sm" color="fg.muted">
        {t('webhooks.verifyNote')}
      </Text>
      {editing ? <EndpointDialog endpoint={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {logged ? <DeliveryLogDialog endpoint={logged} onClose={() => setLogOf(null)} /> : null}
      <ConfirmDialog
        open={!!deleting}
        title={t('webhooks.deleteTitle')}
        text={t('webhooks.deleteText', { url: deleting?.url ?? '' })}
        confirmLabel={t('webhooks.delete')}
        danger
        onConfirm={() => deleting && void onDelete(deleting)}
        onClose={() => setDeleting(null)}
      />
    </SettingsSection>
  )
}

/** "200", "HTTP 500" or why the receiver did not answer. */
function attemptOutcome(attempt: DeliveryAttempt, t: TFunction): string {
  if (attempt.status != null) return t('webhooks.httpStatus', { status: attempt.status })
  return attempt.error ?? t('webhooks.noAnswer')
}

const STATE_PALETTE = { ACTIVE: 'green', RETRYING: 'orange', DISABLED: 'red' } as const

function EndpointRow({
  endpoint,
  testing,
  onTest,
  onLog,
  onEdit,
  onDelete,
}: {
  endpoint: WebhookEndpoint
  testing: boolean
  onTest: () => void
  onLog: () => void
  onEdit: () => void
  onDelete: () => void
}) {
  const { t, i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  const last = endpoint.lastDelivery
  return (
    <Box as="li" borderWidth="1px" borderRadius="xl" p="4" data-testid="webhook" data-endpoint-id={endpoint.endpointId}>
      <Stack gap="3">
        <Flex gap="2" align="flex-start" justify="space-between" wrap="wrap">
          <Text fontFamily="mono" fontSize="sm" fontWeight="semibold" wordBreak="break-all" minW="0" flex="1" data-testid="webhook-url">
            {endpoint.url}
          </Text>
          <Badge colorPalette={STATE_PALETTE[endpoint.state]} variant="subtle" flexShrink={0} data-testid="webhook-state">
            {t(`webhooks.state.${endpoint.state}`)}
          </Badge>
        </Flex>
        <HStack gap="1.5" wrap="wrap" aria-label={t('webhooks.subscribed')}>
          {endpoint.topics.map((topic) => (
            <Badge key={topic} colorPalette="brand" variant="outline" fontFamily="mono">
              {topic}
            </Badge>
          ))}
          {endpoint.noticeKinds.map((kind) => (
            <Badge key={kind} colorPalette="gray" variant="subtle">
              {t(`notices.kinds.${kind}`)}
            </Badge>
          ))}
        </HStack>
        {endpoint.state === 'RETRYING' ? (
          <Text fontSize="sm" color="fg.warning" data-testid="webhook-why">
            {t('webhooks.retrying', {
              n: endpoint.failures,
              why: last ? attemptOutcome(last, t) : t('webhooks.noAnswer'),
              date: endpoint.nextAttemptAt ? formatDateTime(endpoint.nextAttemptAt, lng) : '—',
            })}
          </Text>
        ) : endpoint.state === 'DISABLED' ? (
          <Text fontSize="sm" color="fg.error" data-testid="webhook-why">
            {t('webhooks.disabled', {
              date: endpoint.disabledAt ? formatDateTime(endpoint.disabledAt, lng) : '—',
              why: last ? attemptOutcome(last, t) : t('webhooks.noAnswer'),
              position: endpoint.acknowledgedPosition + 1,
            })}
          </Text>
        ) : null}
        <Text fontSize="sm" color="fg.muted" data-testid="webhook-last">
          {last
            ? t(last.ok ? 'webhooks.lastOk' : 'webhooks.lastFailed', {
                outcome: attemptOutcome(last, t),
                ms: last.latencyMs,
                date: formatDateTime(last.at, lng),
              })
            : t('webhooks.neverDelivered')}
          {/* Where it stands, once something was sent (before, it is only where it started). */}
          {last ? ` · ${t('webhooks.acknowledged', { position: endpoint.acknowledgedPosition })}` : null}
        </Text>
        <HStack gap="2" wrap="wrap">
          <Button size="sm" variant="outline" onClick={onTest} loading={testing} data-testid="webhook-test">
            <LuSend /> {t('webhooks.sendTest')}
          </Button>
          <Button size="sm" variant="outline" onClick={onLog} data-testid="webhook-log">
            <LuHistory /> {t('webhooks.log')}
          </Button>
          <Button size="sm" variant="outline" onClick={onEdit} aria-label={t('webhooks.editNamed', { url: endpoint.url })} data-testid="webhook-edit">
            <LuPencil /> {t('webhooks.edit')}
          </Button>
          <Button
            size="sm"
            variant="outline"
            colorPalette="red"
            onClick={onDelete}
            aria-label={t('webhooks.deleteNamed', { url: endpoint.url })}
            data-testid="webhook-delete"
          >
            <LuTrash2 /> {t('webhooks.delete')}
          </Button>
        </HStack>
      </Stack>
    </Box>
  )
}

function DialogShell({ title, testId, onClose, closeOnOutside = true, children }: { title: string; testId: string; onClose: () => void; closeOnOutside?: boolean; children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Dialog.Root open onOpenChange={(e) => (e.open ? undefined : onClose())} placement="center" size="lg" scrollBehavior="inside" closeOnInteractOutside={closeOnOutside}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            {children}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

type FormErrors = { url?: string; topics?: string; form?: string }

/** Which field a 400 of the API names (`url: ...`, `topics: ...`, `topics, noticeKinds: ...`). */
function fieldOf(err: unknown): keyof FormErrors {
  if (err instanceof ApiError && err.statuscode === 400) {
    if (/^url\b/.test(err.message)) return 'url'
    if (/^(topics|noticeKinds)\b/.test(err.message)) return 'topics'
  }
  return 'form'
}

/** Registers an endpoint (then shows its secret once) or changes one. */
function EndpointDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const { t } = useTranslation()
  const { create, update } = useWebhookActions()
  const [url, setUrl] = useState(endpoint?.url ?? '')
  const [market, setMarket] = useState(endpoint ? endpoint.topics.includes('market') : true)
  const [otherTopics, setOtherTopics] = useState(endpoint ? endpoint.topics.filter((topic) => topic !== 'market').join('\n') : '')
  const [kinds, setKinds] = useState<NoticeKind[]>(endpoint?.noticeKinds ?? [])
  const [errors, setErrors] = useState<FormErrors>({})
  const [saving, setSaving] = useState(false)
  const [created, setCreated] = useState<CreatedEndpoint | null>(null)
  const [copied, setCopied] = useState(false)

  const toggle = (kind: NoticeKind, on: boolean) =>
    setKinds((current) => (on ? NOTICE_KINDS.filter((k) => k === kind || current.includes(k)) : current.filter((k) => k !== kind)))

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: FormErrors = {}
    const trimmed = url.trim()
    const others = parseTopics(otherTopics).filter((topic) => topic !== 'market')
    const topics = [...(market ? ['market'] : []), ...others]
    if (!trimmed) found.url = t('webhooks.urlRequired')
    else if (trimmed.length > WEBHOOK_URL_MAX) found.url = t('webhooks.urlTooLong', { max: WEBHOOK_URL_MAX })
    else if (!/^https?:\/\/[^/?#\s]+/i.test(trimmed)) found.url = t('webhooks.urlScheme')
    const bad = others.find((topic) => !TOPIC_PATTERN.test(topic))
    if (bad) found.topics = t('webhooks.topicUnknown', { topic: bad })
    else if (topics.length > WEBHOOK_TOPICS_MAX) found.topics = t('webhooks.topicsTooMany', { max: WEBHOOK_TOPICS_MAX })
    else if (!topics.length && !kinds.length) found.topics = t('webhooks.chooseSomething')
    setErrors(found)
    if (found.url || found.topics) return
    setSaving(true)
    try {
      const input = { url: trimmed, topics, noticeKinds: kinds }
      if (endpoint) {
        await update(endpoint.endpointId, input)
        notify('success', t('webhooks.saved'))
        onClose()
      } else {
        setCreated(await create(input))
      }
    } catch (err) {
      setErrors({ [fieldOf(err)]: errorMessage(err, t('common.genericError')) })
    } finally {
      setSaving(false)
    }
  }

  const copy = async () => {
    if (!created) return
    try {
      await navigator.clipboard.writeText(created.secret)
      setCopied(true)
      notify('success', t('webhooks.copied'))
    } catch {
      notify('error', t('webhooks.copyFailed'))
    }
  }

  const title = created ? t('webhooks.createdTitle') : endpoint ? t('webhooks.editTitle') : t('webhooks.createTitle')
  return (
    <DialogShell title={title} testId="webhook-dialog" onClose={onClose} closeOnOutside={!created}>
      {created ? (
        <>
          <Dialog.Body>
            <Stack gap="4">
              <Text color="fg.muted">{t('webhooks.showOnce')}</Text>
              <Box borderWidth="1px" borderRadius="lg" bg="bg.muted" p="3">
                <Text fontFamily="mono" fontSize="sm" wordBreak="break-all" data-testid="webhook-secret">
                  {created.secret}
                </Text>
              </Box>
              <Text fontSize="sm" color="fg.muted">
                {t('webhooks.secretUsage')}
              </Text>
            </Stack>
          </Dialog.Body>
          <Dialog.Footer>
            <Button variant="outline" onClick={() => void copy()} data-testid="webhook-copy">
              {copied ? <LuCheck /> : <LuCopy />} {copied ? t('webhooks.copiedShort') : t('webhooks.copy')}
            </Button>
            <Button colorPalette="brand" onClick={onClose} data-testid="webhook-done">
              {t('webhooks.done')}
            </Button>
          </Dialog.Footer>
        </>
      ) : (
        // A flex column as the dialog's content is, so that the body scrolls and the buttons stay in view.
        <chakra.form onSubmit={(e) => void submit(e)} noValidate display="flex" flexDirection="column" flex="1" minH="0">
          <Dialog.Body>
            <Stack gap="5">
              <FormField label={t('webhooks.url')} error={errors.url} helper={t('webhooks.urlHelp')} required>
                <Input
                  type="url"
                  inputMode="url"
                  value={url}
                  onChange={(e) => setUrl(e.target.value)}
                  placeholder="https://hooks.example.com/market"
                  maxLength={WEBHOOK_URL_MAX}
                  autoFocus
                  data-testid="webhook-url-input"
                />
              </FormField>
              <Stack as="fieldset" gap="3" border="0" p="0" m="0">
                <Text as="legend" fontWeight="medium" mb="2">
                  {t('webhooks.topics')}
                </Text>
                <Checkbox.Root colorPalette="brand" checked={market} onCheckedChange={(e) => setMarket(!!e.checked)} alignItems="flex-start" data-testid="webhook-topic-market">
                  <Checkbox.HiddenInput />
                  <Checkbox.Control mt="0.5" />
                  <Stack gap="0" minW="0">
                    <Checkbox.Label>{t('webhooks.topicMarket')}</Checkbox.Label>
                    <Text fontSize="sm" color="fg.muted">
                      {t('webhooks.topicMarketHelp')}
                    </Text>
                  </Stack>
                </Checkbox.Root>
                <FormField label={t('webhooks.otherTopics')} error={errors.topics} helper={t('webhooks.otherTopicsHelp', { max: WEBHOOK_TOPICS_MAX })}>
                  <Textarea
                    value={otherTopics}
                    onChange={(e) => setOtherTopics(e.target.value)}
                    placeholder={'nft:80001-7\ncollection:…'}
                    rows={2}
                    fontFamily="mono"
                    fontSize="sm"
                    autoCapitalize="off"
                    autoCorrect="off"
                    spellCheck={false}
                    data-testid="webhook-topics-input"
                  />
                </FormField>
              </Stack>
              <Stack as="fieldset" gap="3" border="0" p="0" m="0">
                <Text as="legend" fontWeight="medium" mb="1">
                  {t('webhooks.kinds')}
                </Text>
                <Text fontSize="sm" color="fg.muted">
                  {t('webhooks.kindsHelp')}
                </Text>
                <SimpleGrid columns={{ base: 1, sm: 2 }} gap="2">
                  {NOTICE_KINDS.map((kind) => (
                    <Checkbox.Root key={kind} colorPalette="brand" checked={kinds.includes(kind)} onCheckedChange={(e) => toggle(kind, !!e.checked)} data-testid={`webhook-kind-${kind}`}>
                      <Checkbox.HiddenInput />
                      <Checkbox.Control />
                      <Checkbox.Label>{t(`notices.kinds.${kind}`)}</Checkbox.Label>
                    </Checkbox.Root>
                  ))}
                </SimpleGrid>
              </Stack>
              {errors.form ? (
                <Text color="fg.error" fontSize="sm" role="alert">
                  {errors.form}
                </Text>
              ) : null}
            </Stack>
          </Dialog.Body>
          <Dialog.Footer>
            <Button variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" colorPalette="brand" loading={saving} data-testid="webhook-submit">
              {endpoint ? t('webhooks.save') : t('webhooks.createSubmit')}
            </Button>
          </Dialog.Footer>
        </chakra.form>
      )}
    </DialogShell>
  )
}

/** An endpoint's delivery log, newest first, and "redeliver from position N". */
function DeliveryLogDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  const { data: attempts, error, isLoading } = useWebhookDeliveries(endpoint.endpointId)
  const { redeliver } = useWebhookActions()
  const [from, setFrom] = useState(String(endpoint.acknowledgedPosition + 1))
  const [fromError, setFromError] = useState<string | undefined>()
  const [sending, setSending] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const position = Number(from)
    if (!Number.isInteger(position) || position < 1) {
      setFromError(t('webhooks.positionInvalid'))
      return
    }
    setFromError(undefined)
    setSending(true)
    try {
      await redeliver(endpoint.endpointId, position)
      notify('success', t('webhooks.redelivering', { position }))
    } catch (err) {
      setFromError(errorMessage(err, t('common.genericError')))
    } finally {
      setSending(false)
    }
  }

  return (
    <DialogShell title={t('webhooks.logTitle')} testId="webhook-log-dialog" onClose={onClose}>
      <Dialog.Body>
        <Stack gap="5">
          <Text fontFamily="mono" fontSize="sm" color="fg.muted" wordBreak="break-all">
            {endpoint.url}
          </Text>
          <form onSubmit={(e) => void submit(e)} noValidate>
            <Stack gap="2">
              <Flex gap="2" align="flex-end" wrap="wrap">
                <Box flex="1" minW="40">
                  <FormField label={t('webhooks.redeliverFrom')} error={fromError}>
                    <Input type="number" inputMode="numeric" min={1} value={from} onChange={(e) => setFrom(e.target.value)} data-testid="webhook-redeliver-from" />
                  </FormField>
                </Box>
                <Button type="submit" variant="outline" colorPalette="brand" loading={sending} data-testid="webhook-redeliver" mb={fromError ? '6' : '0'}>
                  {t('webhooks.redeliver')}
                </Button>
              </Flex>
              <Text fontSize="sm" color="fg.muted">
                {endpoint.state === 'DISABLED' ? t('webhooks.redeliverEnables') : t('webhooks.redeliverHelp')}
              </Text>
            </Stack>
          </form>
          {isLoading ? (
            <Stack gap="2">
              <Skeleton h="12" />
              <Skeleton h="12" />
            </Stack>
          ) : error ? (
            <Text color="fg.error">{errorMessage(error, t('common.genericError'))}</Text>
          ) : !attempts?.length ? (
            <Text color="fg.muted" data-testid="webhook-log-empty">
              {t('webhooks.logEmpty')}
            </Text>
          ) : (
            <Stack as="ol" gap="0" listStyleType="none" m="0" p="0" aria-label={t('webhooks.logTitle')} data-testid="webhook-attempts">
              {attempts.map((attempt) => (
                <Flex
                  as="li"
                  key={`${attempt.messageId}-${attempt.attempt}-${attempt.at}`}
                  gap="2"
                  py="2.5"
                  borderBottomWidth="1px"
                  align="center"
                  justify="space-between"
                  wrap="wrap"
                  data-testid="webhook-attempt"
                  data-position={attempt.position}
                >
                  <Stack gap="0.5" minW="0">
                    <Text fontSize="sm" fontWeight="medium">
                      {attempt.position === 0 ? t('webhooks.testEvent') : t('webhooks.position', { position: attempt.position })}
                      <Text as="span" color="fg.muted" fontWeight="normal">
                        {' · '}
                        {t('webhooks.attempt', { n: attempt.attempt })}
                      </Text>
                    </Text>
                    <Text fontSize="xs" color="fg.muted">
                      {formatDateTime(attempt.at, lng)} · {t('webhooks.latency', { ms: attempt.latencyMs })}
                    </Text>
                    {attempt.error ? (
                      <Text fontSize="xs" color="fg.error" wordBreak="break-word">
                        {attempt.error}
                      </Text>
                    ) : null}
                  </Stack>
                  <Badge colorPalette={attempt.ok ? 'green' : 'red'} variant="subtle" flexShrink={0} data-testid="webhook-attempt-status">
                    {attempt.status != null ? attempt.status : t('webhooks.noAnswerShort')}
                  </Badge>
                </Flex>
              ))}
            </Stack>
          )}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onClose}>
          {t('common.close')}
        </Button>
      </Dialog.Footer>
    </DialogShell>
  )
}
