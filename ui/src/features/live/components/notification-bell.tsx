import { Box, IconButton } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuBell } from 'react-icons/lu'
import { Link } from 'react-router'
import { formatCount } from '@/lib/format'
import { useUnreadCount } from '../api/notifications'

/** The top bar's bell: the unread count, and the way to /notifications. */
export function NotificationBell() {
  const { t } = useTranslation()
  const unread = useUnreadCount().data?.unread ?? 0
  const label = unread ? t('notices.bellUnread', { count: unread }) : t('notices.title')
  return (
    <IconButton asChild variant="ghost" aria-label={label} title={label} position="relative" borderRadius="full" data-testid="notification-bell">
      <Link to="/notifications">
        <LuBell />
        {unread > 0 && (
          <Box
            as="span"
            position="absolute"
            top="1"
            right="1"
            minW="4.5"
            h="4.5"
            px="1"
            borderRadius="full"
            bg="red.solid"
            color="white"
            fontSize="2xs"
            fontWeight="bold"
            lineHeight="4.5"
            textAlign="center"
            data-testid="notification-count"
          >
            {unread > 99 ? '99+' : formatCount(unread)}
          </Box>
        )}
      </Link>
    </IconButton>
  )
}
