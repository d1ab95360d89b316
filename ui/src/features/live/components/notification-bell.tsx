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
            top="0.5"
            right="0.5"
            minW="18px"
            h="18px"
            px="1"
            display="flex"
            alignItems="center"
            justifyContent="center"
            borderRadius="full"
            bg="red.solid"
            color="white"
            fontSize="10px"
            fontWeight="bold"
            lineHeight="1"
            data-testid="notification-count"
          >
            {unread > 99 ? '99+' : formatCount(unread)}
          </Box>
        )}
      </Link>
    </IconButton>
  )
}
