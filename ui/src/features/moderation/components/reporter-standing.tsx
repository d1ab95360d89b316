import { Badge, Button, HStack } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuVolume2, LuVolumeX } from 'react-icons/lu'
import { ReasonDialog } from '@/components/moderation/reason-dialog'
import { notify } from '@/components/ui/toaster'
import { MUTE_AFTER_DISMISSED, type Report, useModerationActions } from '@/lib/moderation/api'

/**
 * What a moderator weighs of a reporter beside their report: how many of their reports were
 * dismissed, whether they are muted, and Mute (offered once they have at least
 * {@link MUTE_AFTER_DISMISSED} dismissed reports, as the server requires) or Unmute, each with
 * a reason the staff reads (the reporter is not told: their reports are still accepted, they
 * just stay out of the queue).
 */
export function ReporterStanding({ report }: { report: Report }) {
  const { t } = useTranslation()
  const { decide } = useModerationActions()
  const [acting, setActing] = useState<'mute' | 'unmute' | null>(null)
  const username = report.reporterUsername || report.reporterId
  const canMute = !report.reporterMuted && report.reporterDismissed >= MUTE_AFTER_DISMISSED

  const act = async (action: 'mute' | 'unmute', reason: string) => {
    await decide('user', report.reporterId, action, reason)
    notify('success', t(`moderation.reporter.${action}Done`, { username }))
  }

  return (
    <HStack gap="2" wrap="wrap" data-testid="reporter-standing">
      <Badge
        variant="outline"
        size="sm"
        colorPalette={report.reporterDismissed >= MUTE_AFTER_DISMISSED ? 'orange' : 'gray'}
        title={t('moderation.reporter.dismissedHelp')}
        data-testid="reporter-dismissed"
      >
        {t('moderation.reporter.dismissed', { count: report.reporterDismissed })}
      </Badge>
      {report.reporterMuted ? (
        <Badge colorPalette="purple" variant="subtle" size="sm" data-testid="reporter-muted">
          {t('moderation.reporter.muted')}
        </Badge>
      ) : null}
      {canMute ? (
        <Button size="xs" variant="ghost" colorPalette="purple" onClick={() => setActing('mute')} data-testid="reporter-mute">
          <LuVolumeX aria-hidden /> {t('moderation.reporter.mute')}
        </Button>
      ) : null}
      {report.reporterMuted ? (
        <Button size="xs" variant="ghost" onClick={() => setActing('unmute')} data-testid="reporter-unmute">
          <LuVolume2 aria-hidden /> {t('moderation.reporter.unmute')}
        </Button>
      ) : null}
      {acting ? (
        <ReasonDialog
          title={t(`moderation.reporter.${acting}Title`, { username })}
          text={t(`moderation.reporter.${acting}Text`)}
          label={t('moderation.reporter.reasonLabel')}
          submitLabel={t(`moderation.reporter.${acting}`)}
          danger={acting === 'mute'}
          submit={(reason) => act(acting, reason)}
          onClose={() => setActing(null)}
        />
      ) : null}
    </HStack>
  )
}
