import { Badge, Button, Heading, HStack, Skeleton, Stack, Tabs, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { IconInbox, IconShieldOff } from '@/components/moderation/icons'
import { Link } from 'react-router'
import { PageContainer } from '@/components/page-container'
import { errorMessage } from '@/lib/api-client'
import { formatCount } from '@/lib/format'
import { useMyRoles, useQueue } from '@/lib/moderation/api'
import { QueueCard } from './queue-card'
import { StaffPanel } from './staff-panel'

/** What a signed-in person without a staff role sees at /moderation. */
function NotAllowed() {
  const { t } = useTranslation()
  return (
    <Stack align="center" textAlign="center" gap="4" py="16" data-testid="moderation-not-allowed">
      <IconShieldOff size="40" aria-hidden />
      <Heading as="h1" size="xl">
        {t('moderation.notAllowed')}
      </Heading>
      <Text color="fg.muted" maxW="md">
        {t('moderation.notAllowedText')}
      </Text>
      <HStack gap="3" wrap="wrap" justify="center">
        <Button asChild variant="outline" borderRadius="full">
          <Link to="/">{t('notFound.home')}</Link>
        </Button>
        <Button asChild variant="outline" borderRadius="full">
          <Link to="/transparency">{t('transparency.title')}</Link>
        </Button>
      </HStack>
    </Stack>
  )
}

/** The open queue: targets awaiting a decision, longest waiting first. */
function QueuePanel() {
  const { t, i18n } = useTranslation()
  const { data, error, isLoading } = useQueue(true)
  if (isLoading) {
    return (
      <Stack gap="4" data-testid="queue-loading">
        <Skeleton h="48" borderRadius="2xl" />
        <Skeleton h="48" borderRadius="2xl" />
      </Stack>
    )
  }
  if (error) return <Text color="fg.error">{errorMessage(error, t('common.genericError'))}</Text>
  if (!data?.items.length) {
    return (
      <Stack align="center" textAlign="center" gap="2" py="12" color="fg.muted" data-testid="queue-empty">
        <IconInbox size="36" aria-hidden />
        <Text fontWeight="semibold" color="fg">
          {t('moderation.queue.empty')}
        </Text>
        <Text fontSize="sm">{t('moderation.queue.emptyText')}</Text>
      </Stack>
    )
  }
  return (
    <Stack gap="4">
      <Text color="fg.muted" fontSize="sm" data-testid="queue-total">
        {t('moderation.queue.total', { count: data.total, formatted: formatCount(data.total, i18n.resolvedLanguage) })}
        {data.total > data.items.length ? ` ${t('moderation.queue.showing', { count: data.items.length })}` : ''}
      </Text>
      <Stack as="ul" gap="4" listStyleType="none" m="0" p="0" data-testid="queue">
        {data.items.map((item) => (
          <QueueCard key={`${item.targetKind}:${item.targetId}`} item={item} />
        ))}
      </Stack>
    </Stack>
  )
}

/**
 * /moderation (signed in): the moderators' queue, and for admins the staff. Anyone else is told
 * the page is for the staff; the server refuses them the queue anyway.
 */
export function ModerationPage() {
  const { t } = useTranslation()
  const { isModerator, isAdmin, loading } = useMyRoles()
  const { data } = useQueue(isModerator)
  useEffect(() => {
    document.title = `${t('moderation.title')} | ${t('app.name')}`
  }, [t])
  if (loading) {
    return (
      <PageContainer>
        <Skeleton h="10" w="60" mb="6" />
        <Skeleton h="48" borderRadius="2xl" />
      </PageContainer>
    )
  }
  if (!isModerator) {
    return (
      <PageContainer>
        <NotAllowed />
      </PageContainer>
    )
  }
  return (
    <PageContainer maxW="5xl">
      <Stack gap="1" mb="6">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          {t('moderation.title')}
        </Heading>
        <Text color="fg.muted">{t('moderation.intro')}</Text>
      </Stack>
      <Tabs.Root defaultValue="queue" variant="line" colorPalette="brand" lazyMount>
        <Tabs.List mb="6">
          <Tabs.Trigger value="queue" data-testid="moderation-tab-queue">
            {t('moderation.queue.tab')}
            {data?.total ? (
              <Badge colorPalette="red" variant="solid" borderRadius="full" ms="1">
                {data.total}
              </Badge>
            ) : null}
          </Tabs.Trigger>
          {isAdmin && (
            <Tabs.Trigger value="staff" data-testid="moderation-tab-staff">
              {t('moderation.staff.tab')}
            </Tabs.Trigger>
          )}
        </Tabs.List>
        <Tabs.Content value="queue" pt="0">
          <QueuePanel />
        </Tabs.Content>
        {isAdmin && (
          <Tabs.Content value="staff" pt="0">
            <StaffPanel />
          </Tabs.Content>
        )}
      </Tabs.Root>
    </PageContainer>
  )
}
