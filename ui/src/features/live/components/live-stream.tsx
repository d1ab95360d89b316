import { Box, HStack, Spinner, Text } from '@chakra-ui/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSWRConfig } from 'swr'
import { notify } from '@/components/ui/toaster'
import { useSession } from '@/lib/auth'
import { publishChange, publishReset, topicList, useLiveStore } from '@/lib/live/live-store'
import { type Change, type NoticeKind, openStream } from '@/lib/live/stream'
import { nftDetailKey, nftHistoryKey, nftInAuctionKey } from '@/lib/nft/api'
import { isOwnTransaction } from '@/lib/nft/own-transactions'
import { navigateTo } from '@/lib/navigation'
import { isOfferKey } from '@/lib/offers/api'
import { UNREAD_KEY, useNoticeSettings } from '../api/notifications'
import { bidAgainLink, noticeText } from '../notice-text'

/** A connection down this long is said on screen (a short drop reconnects unseen). */
export const DOWN_NOTICE_MS = 8000

/** A notice's snackbar stays this long (one with a way back, "Bid again", longer). */
export const NOTICE_DURATION = 10_000
export const ACTIONABLE_NOTICE_DURATION = 30_000

/** Kinds that are good news (a success toast); the others are told as information. */
const GOOD_NEWS: NoticeKind[] = ['SOLD', 'BID_RECEIVED', 'BID_ACCEPTED', 'OFFER_RECEIVED', 'OFFER_ACCEPTED', 'BOUGHT', 'RESTORED']

/**
 * The one connection to `/api/stream` for the whole app: it follows the topics the screens ask
 * for (reconnecting, with its last id, when they change), refetches the NFT calls a change
 * touches, toasts the signed-in user's notices and refreshes their unread count, and says so
 * when live updates stay down.
 */
export function LiveStream() {
  const { t, i18n } = useTranslation()
  const { mutate } = useSWRConfig()
  const token = useSession((s) => s.token)
  const topics = useLiveStore((s) => s.topics)
  const setConnected = useLiveStore((s) => s.setConnected)
  const settings = useNoticeSettings().data
  const lastId = useRef<string | undefined>(undefined)
  const topicKey = topicList(topics).join(',')
  // What the handlers need, current without reconnecting when it changes.
  const context = useRef({ t, lng: i18n.resolvedLanguage, muted: settings?.muted ?? [] })
  context.current = { t, lng: i18n.resolvedLanguage, muted: settings?.muted ?? [] }

  useEffect(() => {
    const wanted = topicKey ? topicKey.split(',') : []
    if (!wanted.length && !token) return
    const onChange = (change: Change) => {
      for (const { nftId } of change.nfts) {
        void mutate(nftDetailKey(nftId))
        void mutate(nftInAuctionKey(nftId))
        void mutate(nftHistoryKey(nftId))
        void mutate((key) => isOfferKey(key, nftId))
      }
      // An offer made, accepted, rejected or withdrawn changes my offers' lists.
      if (change.notices.some((n) => n.kind.startsWith('OFFER_'))) void mutate((key) => isOfferKey(key))
      if (change.notices.length) {
        void mutate(UNREAD_KEY)
        const { t, lng, muted } = context.current
        for (const notice of change.notices) {
          // A transaction of this tab already said how it went (a cart of five NFTs is one message, not six).
          if (muted.includes(notice.kind) || isOwnTransaction(notice.transactionHash)) continue
          const kind = GOOD_NEWS.includes(notice.kind) ? 'success' : 'info'
          if (notice.kind === 'OUTBID') {
            notify(kind, noticeText(t, notice, lng), {
              duration: ACTIONABLE_NOTICE_DURATION,
              action: { label: t('notices.bidAgain'), onClick: () => navigateTo(bidAgainLink(notice)) },
            })
          } else notify(kind, noticeText(t, notice, lng), NOTICE_DURATION)
        }
      }
      publishChange(change)
    }
    const close = openStream({
      topics: wanted,
      token,
      lastEventId: lastId.current,
      onConnected: setConnected,
      onEvent: (event) => {
        lastId.current = String(event.position)
        if (event.type === 'change') onChange(event)
        else if (event.type === 'reset') {
          // The server could not resume: everything shown may be stale.
          void mutate(() => true)
          publishReset()
        }
      },
    })
    return close
  }, [topicKey, token, mutate, setConnected])

  // Signing out or in starts over (the notices are someone else's).
  useEffect(() => {
    lastId.current = undefined
  }, [token])

  return <LiveDownNotice />
}

/** "Live updates paused", once the connection has been down for {@link DOWN_NOTICE_MS}. */
function LiveDownNotice() {
  const { t } = useTranslation()
  const downSince = useLiveStore((s) => s.downSince)
  const wanted = useLiveStore((s) => Object.keys(s.topics).length > 0)
  const [, tick] = useState(0)
  useEffect(() => {
    if (downSince === null) return
    const timer = setTimeout(() => tick((n) => n + 1), Math.max(0, downSince + DOWN_NOTICE_MS - Date.now()) + 50)
    return () => clearTimeout(timer)
  }, [downSince])
  if (!wanted || downSince === null || Date.now() - downSince < DOWN_NOTICE_MS) return null
  return (
    <Box position="fixed" bottom={{ base: '20', md: '6' }} left="50%" transform="translateX(-50%)" zIndex="toast" role="status" data-testid="live-down">
      <HStack bg="bg.panel" borderWidth="1px" borderRadius="full" px="4" py="2" shadow="md" gap="2">
        <Spinner size="xs" />
        <Text fontSize="sm">{t('notices.liveDown')}</Text>
      </HStack>
    </Box>
  )
}

