import { Badge, Box, Button, Checkbox, CloseButton, Dialog, Flex, HStack, Input, Portal, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { LuCheck, LuCopy, LuKeyRound, LuPlus, LuTrash2 } from 'react-icons/lu'
import { ConfirmDialog } from '@/components/nft/confirm-dialog'
import { SettingsSection } from '@/components/settings-section'
import { FormField } from '@/components/ui/form-field'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { formatDate, formatDateTime } from '@/lib/format'
import {
  API_KEY_NAME_MAX,
  API_KEY_SCOPES,
  type ApiKey,
  type ApiKeyScope,
  type CreatedApiKey,
  useApiKeyActions,
  useApiKeys,
} from '../api/api-keys'

/** /profile/api-keys: the caller's API keys for bots: list, create (shown once, with copy), revoke. */
export function ApiKeysPage() {
  const { t } = useTranslation()
  const { data: keys, error, isLoading } = useApiKeys()
  const { revoke } = useApiKeyActions()
  const [creating, setCreating] = useState(false)
  const [revoking, setRevoking] = useState<ApiKey | null>(null)

  const onRevoke = async (key: ApiKey) => {
    try {
      await revoke(key.keyId)
      notify('success', t('apiKeys.revoked', { name: key.name }))
    } catch (err) {
      notify('error', errorMessage(err, t('common.genericError')))
    }
  }

  return (
    <SettingsSection title={t('settings.menu.apiKeys')} description={t('apiKeys.description')}>
      <Flex justify="flex-end">
        <Button colorPalette="brand" onClick={() => setCreating(true)} data-testid="api-key-create">
          <LuPlus /> {t('apiKeys.create')}
        </Button>
      </Flex>
      {isLoading ? (
        <Stack gap="3">
          <Skeleton h="20" borderRadius="xl" />
          <Skeleton h="20" borderRadius="xl" />
        </Stack>
      ) : error ? (
        <Text color="fg.error">{errorMessage(error, t('common.genericError'))}</Text>
      ) : !keys?.length ? (
        <Stack align="center" textAlign="center" gap="2" py="6" color="fg.muted" data-testid="api-keys-empty">
          <LuKeyRound size="32" />
          <Text>{t('apiKeys.empty')}</Text>
        </Stack>
      ) : (
        <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" data-testid="api-keys">
          {keys.map((key) => (
            <KeyRow key={key.keyId} apiKey={key} onRevoke={() => setRevoking(key)} />
          ))}
        </Stack>
      )}
      {creating ? <CreateKeyDialog onClose={() => setCreating(false)} /> : null}
      <ConfirmDialog
        open={!!revoking}
        title={t('apiKeys.revokeTitle')}
        text={t('apiKeys.revokeText', { name: revoking?.name ?? '' })}
        confirmLabel={t('apiKeys.revoke')}
        danger
        onConfirm={() => revoking && void onRevoke(revoking)}
        onClose={() => setRevoking(null)}
      />
    </SettingsSection>
  )
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  const { t, i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  return (
    <Box as="li" borderWidth="1px" borderRadius="xl" p="4" data-testid="api-key" data-key-id={apiKey.keyId}>
      <Flex gap="3" direction={{ base: 'column', sm: 'row' }} align={{ base: 'stretch', sm: 'flex-start' }} justify="space-between">
        <Stack gap="2" minW="0">
          <HStack gap="2" wrap="wrap" minW="0">
            <Text fontWeight="semibold" wordBreak="break-word">
              {apiKey.name}
            </Text>
            {/* Text as code: Chakra's Code would add its recipe to every page's theme. */}
            <Text as="code" fontFamily="mono" fontSize="sm" bg="bg.muted" px="1.5" borderRadius="sm" aria-label={t('apiKeys.prefix')}>
              {apiKey.prefix}…
            </Text>
          </HStack>
          <HStack gap="1.5" wrap="wrap">
            {apiKey.scopes.map((scope) => (
              <Badge key={scope} colorPalette="brand" variant="subtle">
                {t(`apiKeys.scopes.${scope}.label`)}
              </Badge>
            ))}
          </HStack>
          <Text fontSize="sm" color="fg.muted">
            <span title={formatDateTime(apiKey.createdAt, lng)}>{t('apiKeys.createdAt', { date: formatDate(apiKey.createdAt, lng) })}</span>
            {' · '}
            {apiKey.lastUsedAt ? t('apiKeys.lastUsed', { date: formatDateTime(apiKey.lastUsedAt, lng) }) : t('apiKeys.neverUsed')}
          </Text>
        </Stack>
        <Button
          variant="outline"
          colorPalette="red"
          size="sm"
          flexShrink={0}
          onClick={onRevoke}
          aria-label={t('apiKeys.revokeNamed', { name: apiKey.name })}
          data-testid="api-key-revoke"
        >
          <LuTrash2 /> {t('apiKeys.revoke')}
        </Button>
      </Flex>
    </Box>
  )
}

/** The create form, then the new key shown once with a copy button. */
function CreateKeyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const { create } = useApiKeyActions()
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['read'])
  const [errors, setErrors] = useState<{ name?: string; scopes?: string; form?: string }>({})
  const [saving, setSaving] = useState(false)
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const [copied, setCopied] = useState(false)

  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((current) => (on ? API_KEY_SCOPES.filter((s) => s === scope || current.includes(s)) : current.filter((s) => s !== scope)))

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: typeof errors = {}
    if (!name.trim()) found.name = t('apiKeys.nameRequired')
    else if (name.trim().length > API_KEY_NAME_MAX) found.name = t('apiKeys.nameTooLong', { max: API_KEY_NAME_MAX })
    if (!scopes.length) found.scopes = t('apiKeys.scopesRequired')
    setErrors(found)
    if (found.name || found.scopes) return
    setSaving(true)
    try {
      setCreated(await create(name.trim(), scopes))
    } catch (err) {
      setErrors({ form: errorMessage(err, t('common.genericError')) })
    } finally {
      setSaving(false)
    }
  }

  const copy = async () => {
    if (!created) return
    try {
      await navigator.clipboard.writeText(created.key)
      setCopied(true)
      notify('success', t('apiKeys.copied'))
    } catch {
      notify('error', t('apiKeys.copyFailed'))
    }
  }

  return (
    <Dialog.Root open onOpenChange={(e) => (e.open ? undefined : onClose())} placement="center" size="md" scrollBehavior="inside" closeOnInteractOutside={!created}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="api-key-dialog">
            <Dialog.Header>
              <Dialog.Title>{created ? t('apiKeys.createdTitle') : t('apiKeys.createTitle')}</Dialog.Title>
            </Dialog.Header>
            {created ? (
              <>
                <Dialog.Body>
                  <Stack gap="4">
                    <Text color="fg.muted">{t('apiKeys.showOnce')}</Text>
                    <Box borderWidth="1px" borderRadius="lg" bg="bg.muted" p="3">
                      <Text fontFamily="mono" fontSize="sm" wordBreak="break-all" data-testid="api-key-secret">
                        {created.key}
                      </Text>
                    </Box>
                    <Text fontSize="sm" color="fg.muted">
                      {t('apiKeys.usage')}
                    </Text>
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Button variant="outline" onClick={() => void copy()} data-testid="api-key-copy">
                    {copied ? <LuCheck /> : <LuCopy />} {copied ? t('apiKeys.copiedShort') : t('apiKeys.copy')}
                  </Button>
                  <Button colorPalette="brand" onClick={onClose}>
                    {t('apiKeys.done')}
                  </Button>
                </Dialog.Footer>
              </>
            ) : (
              <form onSubmit={(e) => void submit(e)} noValidate>
                <Dialog.Body>
                  <Stack gap="5">
                    <FormField label={t('apiKeys.name')} error={errors.name} helper={t('apiKeys.nameHelp')} required>
                      <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={API_KEY_NAME_MAX} autoFocus data-testid="api-key-name" />
                    </FormField>
                    <Stack as="fieldset" gap="3" border="0" p="0" m="0">
                      <Text as="legend" fontWeight="medium" mb="2">
                        {t('apiKeys.scopesLabel')}
                      </Text>
                      {API_KEY_SCOPES.map((scope) => (
                        <Checkbox.Root
                          key={scope}
                          colorPalette="brand"
                          checked={scopes.includes(scope)}
                          onCheckedChange={(e) => toggle(scope, !!e.checked)}
                          alignItems="flex-start"
                          data-testid={`api-key-scope-${scope}`}
                        >
                          <Checkbox.HiddenInput />
                          <Checkbox.Control mt="0.5" />
                          <Stack gap="0" minW="0">
                            <Checkbox.Label>{t(`apiKeys.scopes.${scope}.label`)}</Checkbox.Label>
                            <Text fontSize="sm" color="fg.muted">
                              {t(`apiKeys.scopes.${scope}.help`)}
                            </Text>
                          </Stack>
                        </Checkbox.Root>
                      ))}
                      {errors.scopes ? (
                        <Text color="fg.error" fontSize="sm">
                          {errors.scopes}
                        </Text>
                      ) : null}
                    </Stack>
                    <Text fontSize="sm" color="fg.muted">
                      {t('apiKeys.publicNote')}
                    </Text>
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
                  <Button type="submit" colorPalette="brand" loading={saving} data-testid="api-key-submit">
                    {t('apiKeys.createSubmit')}
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
