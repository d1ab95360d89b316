import { Badge, type Menu } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { IconShield } from '@/components/moderation/icons'
import { useMyRoles, useQueueCount } from '@/lib/moderation/roles'

/**
 * The avatar menu's Moderation item, for the staff only, with how many targets await a decision.
 * Its own chunk, loaded when the menu first opens: visitors and most people never need it. The
 * menu's item component comes from the menu: imported here, the menu's positioning code would be
 * split from the tooltip's into a chunk of its own, one more request on every first visit.
 */
export function StaffMenuItem({ Item }: { Item: typeof Menu.Item }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { isModerator } = useMyRoles()
  const waiting = useQueueCount(isModerator)
  if (!isModerator) return null
  return (
    <Item value="moderation" onSelect={() => navigate('/moderation')} data-testid="menu-moderation">
      <IconShield /> {t('moderation.title')}
      {waiting ? (
        <Badge ms="auto" colorPalette="red" variant="solid" borderRadius="full" aria-label={t('moderation.queue.waitingCount', { count: waiting })}>
          {waiting}
        </Badge>
      ) : null}
    </Item>
  )
}
