import { Badge } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import type { DecisionKind, ReportReason } from '@/lib/moderation/api'

const REASON_COLORS: Record<ReportReason, string> = { SCAM: 'orange', EXPLICIT: 'red', SPAM: 'yellow', STOLEN: 'purple', OTHER: 'gray' }
const DECISION_COLORS: Record<DecisionKind, string> = {
  HIDE: 'red',
  RESTORE: 'green',
  DISMISS: 'gray',
  VERIFY: 'blue',
  UNVERIFY: 'orange',
  HOLD: 'purple',
  RELEASE: 'teal',
  MUTE: 'pink',
  UNMUTE: 'cyan',
}

/** A report's reason, as a coloured badge. */
export function ReasonBadge({ reason }: { reason: ReportReason }) {
  const { t } = useTranslation()
  return (
    <Badge colorPalette={REASON_COLORS[reason] ?? 'gray'} variant="subtle" data-testid="reason-badge">
      {t(`moderation.reasons.${reason}`)}
    </Badge>
  )
}

/** A decision's kind, as a coloured badge. */
export function DecisionBadge({ decision }: { decision: DecisionKind }) {
  const { t } = useTranslation()
  return (
    <Badge colorPalette={DECISION_COLORS[decision] ?? 'gray'} variant="subtle" data-testid="decision-badge">
      {t(`moderation.decisions.${decision}`)}
    </Badge>
  )
}
