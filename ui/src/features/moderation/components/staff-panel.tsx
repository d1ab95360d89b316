import { Badge, Box, Button, Flex, HStack, IconButton, Input, Link as ChakraLink, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { LuX } from 'react-icons/lu'
import { IconUserPlus } from '@/components/moderation/icons'
import { Link } from 'react-router'
import { ConfirmDialog } from '@/components/nft/confirm-dialog'
import { FormField } from '@/components/ui/form-field'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import { formatDate } from '@/lib/format'
import { STAFF_ROLES, type StaffMember, type StaffRole, useModerationActions, useStaff } from '@/lib/moderation/api'

/** Grant a role by username. */
function GrantForm() {
  const { t } = useTranslation()
  const { grant } = useModerationActions()
  const [username, setUsername] = useState('')
  const [role, setRole] = useState<StaffRole>('moderator')
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const name = username.trim().replace(/^@/, '')
    if (!name) {
      setError(t('moderation.staff.usernameRequired'))
      return
    }
    setError(null)
    setSaving(true)
    try {
      await grant(name, role)
      notify('success', t('moderation.staff.granted', { username: name, role: t(`moderation.roles.${role}`) }))
      setUsername('')
    } catch (err) {
      setError(errorMessage(err, t('common.genericError')))
    } finally {
      setSaving(false)
    }
  }
  return (
    <Box asChild borderWidth="1px" borderRadius="xl" p="4">
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="staff-grant">
        <Text fontWeight="semibold" mb="3">
          {t('moderation.staff.grantTitle')}
        </Text>
        <Flex gap="3" direction={{ base: 'column', md: 'row' }} align={{ base: 'stretch', md: 'flex-start' }}>
          <Box flex="1">
            <FormField label={t('moderation.staff.username')} error={error}>
              <Input value={username} onChange={(e) => setUsername(e.target.value)} placeholder="kofi_waves" autoComplete="off" data-testid="staff-username" />
            </FormField>
          </Box>
          <Box minW={{ md: '44' }}>
            <FormField label={t('moderation.staff.role')}>
              <NativeSelect.Root>
                <NativeSelect.Field value={role} onChange={(e) => setRole(e.target.value as StaffRole)} data-testid="staff-role">
                  {STAFF_ROLES.map((r) => (
                    <option key={r} value={r}>
                      {t(`moderation.roles.${r}`)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>
          </Box>
          <Button type="submit" colorPalette="brand" loading={saving} mt={{ md: '6' }} data-testid="staff-grant-submit">
            <IconUserPlus aria-hidden /> {t('moderation.staff.grant')}
          </Button>
        </Flex>
      </form>
    </Box>
  )
}

/** The admins' Staff tab: everyone with a role (revoke each; not one's own admin), and a grant form. */
export function StaffPanel() {
  const { t, i18n } = useTranslation()
  const me = useSession((s) => s.user?.userId)
  const { data, error, isLoading } = useStaff(true)
  const { revoke } = useModerationActions()
  const [revoking, setRevoking] = useState<{ member: StaffMember; role: StaffRole } | null>(null)
  const onRevoke = async (member: StaffMember, role: StaffRole) => {
    try {
      await revoke(member.userId, role)
      notify('success', t('moderation.staff.revoked', { username: member.username, role: t(`moderation.roles.${role}`) }))
    } catch (err) {
      notify('error', errorMessage(err, t('common.genericError')))
    }
  }
  return (
    <Stack gap="5">
      <Text color="fg.muted" fontSize="sm">
        {t('moderation.staff.intro')}
      </Text>
      <GrantForm />
      {isLoading ? (
        <Skeleton h="24" borderRadius="xl" />
      ) : error ? (
        <Text color="fg.error">{errorMessage(error, t('common.genericError'))}</Text>
      ) : (
        <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" borderWidth="1px" borderRadius="xl" data-testid="staff-list">
          {(data ?? []).map((member) => (
            <Flex
              as="li"
              key={member.userId}
              px="4"
              py="3"
              gap="3"
              borderBottomWidth="1px"
              _last={{ borderBottomWidth: 0 }}
              direction={{ base: 'column', sm: 'row' }}
              align={{ base: 'flex-start', sm: 'center' }}
              justify="space-between"
              data-testid="staff-member"
              data-username={member.username}
            >
              <Stack gap="0" minW="0">
                <ChakraLink asChild fontWeight="semibold" color="fg">
                  <Link to={me === member.userId ? '/myprofile' : `/user/${encodeURIComponent(member.userId)}`}>@{member.username}</Link>
                </ChakraLink>
                <Text fontSize="xs" color="fg.subtle">
                  {t('moderation.staff.since', { date: formatDate(member.since, i18n.resolvedLanguage) })}
                </Text>
              </Stack>
              <HStack gap="2" wrap="wrap">
                {member.roles.map((role) => {
                  const own = me === member.userId && role === 'admin'
                  return (
                    <Badge key={role} colorPalette={role === 'admin' ? 'purple' : 'brand'} variant="subtle" size="lg" borderRadius="full" ps="3" pe={own ? '3' : '1'} gap="1">
                      {t(`moderation.roles.${role}`)}
                      {own ? null : (
                        <IconButton
                          size="2xs"
                          variant="ghost"
                          borderRadius="full"
                          aria-label={t('moderation.staff.revokeNamed', { username: member.username, role: t(`moderation.roles.${role}`) })}
                          onClick={() => setRevoking({ member, role })}
                          data-testid={`staff-revoke-${role}`}
                        >
                          <LuX />
                        </IconButton>
                      )}
                    </Badge>
                  )
                })}
              </HStack>
            </Flex>
          ))}
        </Stack>
      )}
      <ConfirmDialog
        open={!!revoking}
        title={t('moderation.staff.revokeTitle')}
        text={revoking ? t('moderation.staff.revokeText', { username: revoking.member.username, role: t(`moderation.roles.${revoking.role}`) }) : ''}
        confirmLabel={t('moderation.staff.revoke')}
        danger
        onConfirm={() => revoking && void onRevoke(revoking.member, revoking.role)}
        onClose={() => setRevoking(null)}
      />
    </Stack>
  )
}
