import { Badge, Box, Button, Center, Flex, Grid, Heading, HStack, Image, Spinner, Stack, Switch, Text } from '@chakra-ui/react'
import { Fragment, useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuCheckCheck } from 'react-icons/lu'
import { Link as RouterLink, useNavigate } from 'react-router'
import { PageContainer } from '@/components/page-container'
import { notify } from '@/components/ui/toaster'
import { formatRelative } from '@/lib/format'
import { useImageSources } from '@/lib/image-sources'
import { useLiveNotices } from '@/lib/live/live-store'
import { NOTICE_KINDS, type Notice, type NoticeKind } from '@/lib/live/stream'
import { usePagedList, useSentinel } from '@/lib/nft/use-paged-list'
import {
  NOTIFICATIONS_PAGE_SIZE,
  NOTIFICATIONS_PATH,
  type NoticeSettings,
  fetchNotices,
  useNoticeActions,
  useNoticeSettings,
  useUnreadCount,
} from '../api/notifications'
import { noticeLink, noticeText } from '../notice-text'

/**
 * /notifications: the signed-in user's notices, newest first with infinite scroll, all or the
 * unread ones; opening one marks it read, "Mark all as read" reads every one shown; new ones
 * arrive live. Below, which kinds are shown and which are also e-mailed.
 */
export function NotificationsPage() {
  const { t } = useTranslation()
  const [filter, setFilter] = useState<'all' | 'unread'>('all')
  const unread = useUnreadCount().data?.unread ?? 0
  const actions = useNoticeActions()
  const list = usePagedList<Notice>(NOTIFICATIONS_PATH, { limit: NOTIFICATIONS_PAGE_SIZE, unread: filter === 'unread' ? 'true' : undefined }, fetchNotices, {
    onError: (error) => console.error('Could not load the notifications', error),
  })
  const sentinel = useSentinel(list.loadMore, !list.loadingFirst && !list.done && !list.error, list.items.length)
  const { refresh } = list
  useLiveNotices(useCallback(() => void refresh(), [refresh]))
  const newest = list.items[0]?.position

  const readAll = async () => {
    if (newest === undefined) return
    try {
      await actions.readAll(newest)
      await refresh()
    } catch (error) {
      notify('error', error instanceof Error ? error.message : String(error))
    }
  }

  return (
    <PageContainer py={{ base: '6', md: '10' }} maxW="3xl">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap" mb="6">
        <Heading size={{ base: 'xl', md: '2xl' }}>{t('notices.title')}</Heading>
        <Button size="sm" variant="outline" onClick={() => void readAll()} disabled={!unread || newest === undefined} data-testid="read-all">
          <LuCheckCheck />
          {t('notices.readAll')}
        </Button>
      </Flex>
      <HStack gap="2" mb="4" role="group" aria-label={t('notices.title')}>
        {(['all', 'unread'] as const).map((value) => (
          <Button
            key={value}
            size="sm"
            borderRadius="full"
            variant={filter === value ? 'solid' : 'outline'}
            aria-pressed={filter === value}
            onClick={() => setFilter(value)}
            data-testid={`notices-${value}`}
          >
            {value === 'all' ? t('notices.all') : t('notices.unreadOnly', { count: unread })}
          </Button>
        ))}
      </HStack>

      {list.loadingFirst ? (
        <Center py="16">
          <Spinner />
        </Center>
      ) : list.items.length === 0 ? (
        <Center py="16" data-testid="notifications-empty">
          <Text color="fg.muted" fontSize="lg" fontWeight="semibold">
            {filter === 'unread' ? t('notices.noneUnread') : t('notices.empty')}
          </Text>
        </Center>
      ) : (
        <Stack gap="2" data-testid="notifications">
          {list.items.map((notice) => (
            <NoticeRow key={`${notice.position}-${notice.kind}`} notice={notice} onOpen={() => void actions.readOne(notice.position).then(() => refresh())} />
          ))}
          {!list.done && (
            <Center ref={sentinel} py="4">
              {list.loadingMore && <Spinner size="sm" />}
            </Center>
          )}
        </Stack>
      )}

      <NoticeSettingsTable />
    </PageContainer>
  )
}

/**
 * One notice: its NFT's picture, the sentence, when; unread ones marked. A picture the server
 * withholds (a hidden NFT's file answers 451) leaves the box empty rather than a broken image.
 */
function NoticeRow({ notice, onOpen }: { notice: Notice; onOpen: () => void }) {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const image = useImageSources(notice.nftFile, '64px', 64)
  const [withheld, setWithheld] = useState(false)
  return (
    <RouterLink
      to={noticeLink(notice)}
      onClick={(event) => {
        event.preventDefault()
        if (!notice.read) onOpen()
        void navigate(noticeLink(notice))
      }}
      data-testid="notice"
      data-kind={notice.kind}
      data-read={notice.read}
    >
      <HStack
        gap="3"
        p="3"
        borderRadius="lg"
        borderWidth="1px"
        bg={notice.read ? 'transparent' : 'bg.muted'}
        _hover={{ bg: 'bg.emphasized' }}
        align="center"
      >
        <Box boxSize="12" flexShrink="0" borderRadius="md" overflow="hidden" bg="bg.subtle">
          {image.src && !withheld && <Image {...image} alt="" boxSize="12" objectFit="cover" loading="lazy" onError={() => setWithheld(true)} />}
        </Box>
        <Stack gap="0.5" flex="1" minW="0">
          <Text fontSize="sm" fontWeight={notice.read ? 'normal' : 'semibold'} lineClamp={{ base: 3, md: 2 }} wordBreak="break-word">
            {noticeText(t, notice, i18n.resolvedLanguage)}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            {formatRelative(notice.createdAt, Date.now(), i18n.resolvedLanguage)}
          </Text>
        </Stack>
        {!notice.read && <Box boxSize="2.5" borderRadius="full" bg="brand.solid" flexShrink="0" aria-label={t('notices.unread')} />}
      </HStack>
    </RouterLink>
  )
}

/** Which kinds are shown, and which also come by e-mail. */
function NoticeSettingsTable() {
  const { t } = useTranslation()
  const settings = useNoticeSettings().data
  const actions = useNoticeActions()
  const [saving, setSaving] = useState(false)
  if (!settings) return null
  const toggle = async (list: keyof NoticeSettings, kind: NoticeKind, on: boolean) => {
    const next: NoticeSettings = { ...settings, [list]: on ? [...settings[list], kind] : settings[list].filter((k) => k !== kind) }
    setSaving(true)
    try {
      await actions.saveSettings(next)
      notify('success', t('notices.saved'))
    } catch (error) {
      notify('error', error instanceof Error ? error.message : String(error))
    } finally {
      setSaving(false)
    }
  }
  return (
    <Box mt="12" data-testid="notice-settings">
      <Heading size="md" mb="1">
        {t('notices.settings')}
      </Heading>
      <Text fontSize="sm" color="fg.muted" mb="4">
        {t('notices.settingsHint')}
      </Text>
      <Grid templateColumns="1fr auto auto" columnGap={{ base: '3', md: '8' }} rowGap="3" alignItems="center" borderWidth="1px" borderRadius="lg" p="4">
        <Text fontSize="xs" fontWeight="semibold" color="fg.muted">
          {t('notices.kind')}
        </Text>
        <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textAlign="center">
          {t('notices.show')}
        </Text>
        <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textAlign="center">
          {t('notices.email')}
        </Text>
        {NOTICE_KINDS.map((kind) => (
          <Fragment key={kind}>
            <Badge variant="subtle" size="sm" justifySelf="start" whiteSpace="normal">
              {t(`notices.kinds.${kind}`)}
            </Badge>
            {(['muted', 'email'] as const).map((list) => {
              const checked = list === 'muted' ? !settings.muted.includes(kind) : settings.email.includes(kind)
              return (
                <Switch.Root
                  key={list}
                  size="sm"
                  justifySelf="center"
                  checked={checked}
                  disabled={saving}
                  onCheckedChange={(e) => void toggle(list, kind, list === 'muted' ? !e.checked : e.checked)}
                  data-testid={`notice-${list}-${kind}`}
                >
                  <Switch.HiddenInput aria-label={`${t(`notices.kinds.${kind}`)}: ${t(list === 'muted' ? 'notices.show' : 'notices.email')}`} />
                  <Switch.Control />
                </Switch.Root>
              )
            })}
          </Fragment>
        ))}
      </Grid>
    </Box>
  )
}
