import { IconButton, Menu, Portal } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuBadgeCheck, LuBadgeX } from 'react-icons/lu'
import { IconEllipsis, IconFlag } from '@/components/moderation/icons'
import { notify } from '@/components/ui/toaster'
import { useSession } from '@/lib/auth'
import { useModerationActions, useMyRoles, type TargetKind } from '@/lib/moderation/api'
import { currentPath, navigateTo, signInPath } from '@/lib/navigation'
import { ReasonDialog } from './reason-dialog'
import { ReportDialog } from './report-dialog'

/** Runs after the menu closed and handed the focus back to its trigger (else the dialog would close again). */
const afterMenuCloses = (open: () => void) => () => void setTimeout(open, 0)

/**
 * The ⋯ menu of an NFT, a collection or a profile: Report (visitors are asked to sign in first;
 * never on one's own things) and, for admins on a collection or a profile, Verify or Remove
 * verification. Renders nothing when it would be empty.
 */
export function TargetMenu({ kind, targetId, name, own, verified = false }: { kind: TargetKind; targetId: string; name: string; own: boolean; verified?: boolean }) {
  const { t } = useTranslation()
  const token = useSession((s) => s.token)
  const { isAdmin } = useMyRoles()
  const { decide } = useModerationActions()
  const [open, setOpen] = useState<'report' | 'verify' | 'unverify' | null>(null)
  const canVerify = isAdmin && kind !== 'nft'
  if (own && !canVerify) return null

  const report = () => {
    if (!token) navigateTo(signInPath(currentPath()))
    else setOpen('report')
  }
  const badge = async (action: 'verify' | 'unverify', reason: string) => {
    await decide(kind, targetId, action, reason)
    notify('success', action === 'verify' ? t('moderation.verify.done', { name }) : t('moderation.verify.removed', { name }))
  }

  return (
    <>
      <Menu.Root positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger asChild>
          <IconButton variant="outline" size="sm" borderRadius="full" aria-label={t('moderation.menu')} data-testid="target-menu">
            <IconEllipsis />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="48">
              {!own && (
                <Menu.Item value="report" onSelect={afterMenuCloses(report)} data-testid="report-item">
                  <IconFlag /> {t('moderation.report.item')}
                </Menu.Item>
              )}
              {canVerify &&
                (verified ? (
                  <Menu.Item value="unverify" onSelect={afterMenuCloses(() => setOpen('unverify'))} data-testid="unverify-item">
                    <LuBadgeX /> {t('moderation.verify.remove')}
                  </Menu.Item>
                ) : (
                  <Menu.Item value="verify" onSelect={afterMenuCloses(() => setOpen('verify'))} data-testid="verify-item">
                    <LuBadgeCheck /> {t('moderation.verify.verify')}
                  </Menu.Item>
                ))}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {open === 'report' && <ReportDialog kind={kind} targetId={targetId} name={name} onClose={() => setOpen(null)} />}
      {open === 'verify' && (
        <ReasonDialog
          title={t('moderation.verify.title', { name })}
          text={t('moderation.verify.text')}
          label={t('moderation.verify.note')}
          submitLabel={t('moderation.verify.verify')}
          required={false}
          submit={(reason) => badge('verify', reason)}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'unverify' && (
        <ReasonDialog
          title={t('moderation.verify.removeTitle', { name })}
          text={t('moderation.verify.removeText')}
          label={t('moderation.reasonLabel')}
          submitLabel={t('moderation.verify.remove')}
          danger
          submit={(reason) => badge('unverify', reason)}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  )
}
