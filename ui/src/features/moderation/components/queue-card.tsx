import { Badge, Box, Button, Collapsible, Flex, HStack, Link as ChakraLink, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuChevronDown, LuX } from 'react-icons/lu'
import { IconEye, IconEyeOff, IconMessageSquareQuote } from '@/components/moderation/icons'
import { Link } from 'react-router'
import { DecisionBadge, ReasonBadge } from '@/components/moderation/badges'
import { ReasonDialog } from '@/components/moderation/reason-dialog'
import { VerifiedBadge } from '@/components/moderation/verified-badge'
import { WithheldImage } from '@/components/moderation/withheld-image'
import { notify } from '@/components/ui/toaster'
import { IMAGE_SIZES } from '@/lib/image-sources'
import { formatDateTime, formatRelative } from '@/lib/format'
import { type Decision, type QueueItem, type Report, targetPath, useModerationActions } from '@/lib/moderation/api'
import { HoldControls } from './hold-controls'
import { ReporterStanding } from './reporter-standing'

type Act = 'hide' | 'restore' | 'dismiss'

function When({ at }: { at: string }) {
  const { i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  return (
    <Text asChild color="fg.subtle" fontSize="xs" whiteSpace="nowrap">
      <time dateTime={at} title={formatDateTime(at, lng)}>
        {formatRelative(at, Date.now(), lng)}
      </time>
    </Text>
  )
}

function ReportRow({ report, past = false }: { report: Report; past?: boolean }) {
  const { t } = useTranslation()
  return (
    <Stack as="li" gap="1" py="2" borderBottomWidth="1px" borderColor="border.muted" _last={{ borderBottomWidth: 0 }} data-testid={past ? 'past-report' : 'open-report'}>
      <HStack gap="2" wrap="wrap">
        <ReasonBadge reason={report.reason} />
        {past ? (
          <Badge variant="outline" size="sm">
            {t(`moderation.reportStates.${report.state}`)}
          </Badge>
        ) : null}
        <Text fontSize="sm" color="fg.muted">
          {t('moderation.queue.by', { username: report.reporterUsername })}
        </Text>
        <When at={report.filedAt} />
      </HStack>
      {past ? null : <ReporterStanding report={report} />}
      {report.text ? (
        <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
          {report.text}
        </Text>
      ) : null}
    </Stack>
  )
}

function DecisionRow({ decision }: { decision: Decision }) {
  const { t } = useTranslation()
  return (
    <Stack as="li" gap="1" py="2" borderBottomWidth="1px" borderColor="border.muted" _last={{ borderBottomWidth: 0 }} data-testid="past-decision">
      <HStack gap="2" wrap="wrap">
        <DecisionBadge decision={decision.decision} />
        <Text fontSize="sm" color="fg.muted">
          {t('moderation.queue.by', { username: decision.moderator })}
        </Text>
        <When at={decision.at} />
      </HStack>
      {decision.reason ? (
        <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
          {decision.reason}
        </Text>
      ) : null}
    </Stack>
  )
}

/**
 * A target awaiting a decision: its preview and link, its standing, the owner's appeal, the open
 * reports (reason, text, reporter, time), its history, and the actions that apply: Hide (not a
 * user), Restore (hidden), Dismiss (open reports, or an appeal: the hiding then holds). Each asks
 * the reason the owner reads. An NFT also gets its sale's stolen-item hold (HoldControls).
 */
export function QueueCard({ item }: { item: QueueItem }) {
  const { t, i18n } = useTranslation()
  const { decide } = useModerationActions()
  const [acting, setActing] = useState<Act | null>(null)
  const name = item.title || item.targetId
  const path = targetPath(item.targetKind, item.targetId)
  const history = item.pastReports.length + item.decisions.length
  const canHide = !item.standing.hidden && item.targetKind !== 'user'
  const canDismiss = item.openReports.length > 0 || !!item.appeal

  const act = async (action: Act, reason: string) => {
    await decide(item.targetKind, item.targetId, action, reason)
    notify('success', t(`moderation.actions.${action}Done`, { name }))
  }

  return (
    <Box as="li" bg="bg.panel" borderWidth="1px" borderRadius="2xl" p={{ base: '4', md: '5' }} boxShadow="card" data-testid="queue-item" data-target={`${item.targetKind}:${item.targetId}`}>
      <Flex gap="4" direction={{ base: 'column', sm: 'row' }}>
        <Box boxSize={{ base: '20', md: '24' }} borderRadius="xl" overflow="hidden" flexShrink={0} bg="bg.muted">
          <WithheldImage src={item.image} sizes={IMAGE_SIZES.avatar} alt={name} loading="lazy" />
        </Box>
        <Stack gap="3" flex="1" minW="0">
          <Stack gap="1">
            <HStack gap="2" wrap="wrap">
              <Badge variant="outline">{t(`moderation.kinds.${item.targetKind}`)}</Badge>
              {item.standing.hidden ? (
                <Badge colorPalette="red" variant="solid" data-testid="standing-hidden">
                  {t('moderation.standing.hidden')}
                </Badge>
              ) : null}
              {item.standing.verified ? (
                <Badge colorPalette="blue" variant="subtle">
                  <VerifiedBadge verified size={12} color="inherit" /> {t('moderation.verified')}
                </Badge>
              ) : null}
              {item.appeal ? (
                <Badge colorPalette="orange" variant="solid">
                  {t('moderation.standing.appealPending')}
                </Badge>
              ) : null}
            </HStack>
            <ChakraLink asChild fontWeight="bold" fontSize="lg" color="fg" wordBreak="break-word">
              <Link to={path} data-testid="queue-item-link">
                {name}
              </Link>
            </ChakraLink>
            <Text fontSize="sm" color="fg.muted">
              <span title={formatDateTime(item.waitingSince, i18n.resolvedLanguage)}>
                {t('moderation.queue.waiting', { ago: formatRelative(item.waitingSince, Date.now(), i18n.resolvedLanguage) })}
              </span>
            </Text>
            {item.standing.hidden && item.standing.hiddenReason ? (
              <Text fontSize="sm" color="fg.muted" wordBreak="break-word">
                {t('moderation.queue.hiddenFor', { reason: item.standing.hiddenReason })}
              </Text>
            ) : null}
          </Stack>

          {item.appeal ? (
            <Box borderWidth="1px" borderColor="orange.muted" bg="orange.subtle" borderRadius="lg" p="3" data-testid="queue-appeal">
              <HStack gap="2" mb="1" color="orange.fg" fontWeight="semibold" fontSize="sm">
                <IconMessageSquareQuote aria-hidden /> <Text>{t('moderation.queue.appeal')}</Text>
              </HStack>
              <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
                {item.appeal}
              </Text>
            </Box>
          ) : null}

          {item.openReports.length ? (
            <Stack gap="1">
              <Text fontWeight="semibold" fontSize="sm">
                {t('moderation.queue.openReports', { count: item.openReports.length })}
              </Text>
              <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
                {item.openReports.map((report) => (
                  <ReportRow key={report.reportId} report={report} />
                ))}
              </Stack>
            </Stack>
          ) : null}

          {history ? (
            <Collapsible.Root>
              <Collapsible.Trigger asChild>
                <Button variant="ghost" size="sm" px="2" ms="-2" color="fg.muted" data-testid="queue-history-toggle">
                  {t('moderation.queue.history', { count: history })}
                  <Collapsible.Indicator transition="transform 0.2s" _open={{ transform: 'rotate(180deg)' }}>
                    <LuChevronDown />
                  </Collapsible.Indicator>
                </Button>
              </Collapsible.Trigger>
              <Collapsible.Content>
                <Stack gap="3" pt="2">
                  {item.decisions.length ? (
                    <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label={t('moderation.queue.decisions')}>
                      {item.decisions.map((d) => (
                        <DecisionRow key={d.position} decision={d} />
                      ))}
                    </Stack>
                  ) : null}
                  {item.pastReports.length ? (
                    <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label={t('moderation.queue.pastReports')}>
                      {item.pastReports.map((r) => (
                        <ReportRow key={r.reportId} report={r} past />
                      ))}
                    </Stack>
                  ) : null}
                </Stack>
              </Collapsible.Content>
            </Collapsible.Root>
          ) : null}

          <HStack gap="2" wrap="wrap" pt="1">
            {canHide ? (
              <Button size="sm" colorPalette="red" onClick={() => setActing('hide')} data-testid="action-hide">
                <IconEyeOff aria-hidden /> {t('moderation.actions.hide')}
              </Button>
            ) : null}
            {item.standing.hidden ? (
              <Button size="sm" colorPalette="green" onClick={() => setActing('restore')} data-testid="action-restore">
                <IconEye aria-hidden /> {t('moderation.actions.restore')}
              </Button>
            ) : null}
            {canDismiss ? (
              <Button size="sm" variant="outline" onClick={() => setActing('dismiss')} data-testid="action-dismiss">
                <LuX aria-hidden /> {item.appeal && !item.openReports.length ? t('moderation.actions.keepHidden') : t('moderation.actions.dismiss')}
              </Button>
            ) : null}
          </HStack>
          {item.targetKind === 'nft' ? <HoldControls nftId={item.targetId} stolen={item.openReports.some((r) => r.reason === 'STOLEN')} /> : null}
        </Stack>
      </Flex>
      {acting ? (
        <ReasonDialog
          title={t(`moderation.actions.${acting}Title`, { name })}
          text={t(`moderation.actions.${acting}Text`)}
          label={t('moderation.reasonLabel')}
          submitLabel={acting === 'dismiss' && item.appeal && !item.openReports.length ? t('moderation.actions.keepHidden') : t(`moderation.actions.${acting}`)}
          danger={acting === 'hide'}
          submit={(reason) => act(acting, reason)}
          onClose={() => setActing(null)}
        />
      ) : null}
    </Box>
  )
}
