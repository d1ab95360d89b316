import { Box, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuDownload, LuMail, LuTrash2 } from 'react-icons/lu'
import { SettingsSection } from '@/components/settings-section'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { downloadExport, emailExport } from '../api/privacy'
import { DeleteAccountDialog } from './delete-account-dialog'

/** /profile/privacy: a copy of one's data (downloaded or mailed as a link) and deleting the account. */
export function PrivacyPage() {
  const { t } = useTranslation()
  const [busy, setBusy] = useState<'download' | 'email' | null>(null)
  const [exportError, setExportError] = useState<string | null>(null)
  const [mailed, setMailed] = useState<string | null>(null)
  const [deleting, setDeleting] = useState(false)

  const download = async () => {
    setBusy('download')
    setExportError(null)
    try {
      await downloadExport()
      notify('success', t('yourData.downloaded'))
    } catch (error) {
      setExportError(errorMessage(error, t('common.genericError')))
    } finally {
      setBusy(null)
    }
  }

  const email = async () => {
    setBusy('email')
    setExportError(null)
    setMailed(null)
    try {
      const { message } = await emailExport()
      setMailed(message || t('yourData.emailSent'))
    } catch (error) {
      setExportError(errorMessage(error, t('common.genericError')))
    } finally {
      setBusy(null)
    }
  }

  return (
    <SettingsSection title={t('settings.menu.privacy')} description={t('yourData.description')}>
      <Stack gap="3" data-testid="data-export">
        <Heading as="h3" size="md">
          {t('yourData.exportTitle')}
        </Heading>
        <Text color="fg.muted">{t('yourData.exportText')}</Text>
        <HStack gap="3" wrap="wrap">
          <Button colorPalette="brand" onClick={() => void download()} loading={busy === 'download'} disabled={!!busy} data-testid="data-download">
            <LuDownload /> {t('yourData.download')}
          </Button>
          <Button variant="outline" onClick={() => void email()} loading={busy === 'email'} disabled={!!busy} data-testid="data-email">
            <LuMail /> {t('yourData.emailLink')}
          </Button>
        </HStack>
        {mailed ? (
          <Text color="fg.success" fontSize="sm" role="status" data-testid="data-email-sent">
            {mailed}
          </Text>
        ) : null}
        {exportError ? (
          <Text color="fg.error" fontSize="sm" role="alert" data-testid="data-export-error">
            {exportError}
          </Text>
        ) : null}
      </Stack>
      <Box borderWidth="1px" borderColor="border.error" borderRadius="xl" p={{ base: '4', md: '5' }} data-testid="danger-zone">
        <Stack gap="3">
          <Text fontSize="sm" fontWeight="semibold" color="fg.error" textTransform="uppercase" letterSpacing="wider">
            {t('yourData.dangerZone')}
          </Text>
          <Heading as="h3" size="md">
            {t('yourData.deleteTitle')}
          </Heading>
          <Text color="fg.muted">{t('yourData.deleteText')}</Text>
          <Button colorPalette="red" alignSelf="flex-start" onClick={() => setDeleting(true)} data-testid="account-delete">
            <LuTrash2 /> {t('yourData.deleteButton')}
          </Button>
        </Stack>
      </Box>
      {deleting ? <DeleteAccountDialog onClose={() => setDeleting(false)} /> : null}
    </SettingsSection>
  )
}
