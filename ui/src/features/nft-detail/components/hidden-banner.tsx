import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { IconEyeOff, IconScale } from '@/components/moderation/icons'
import { ReasonDialog } from '@/components/moderation/reason-dialog'
import { notify } from '@/components/ui/toaster'
import { formatDate, formatDateTime } from '@/lib/format'
import { type Standing, useModerationActions } from '@/lib/moderation/api'

/**
 * What the owner (and the staff) of a hidden NFT see on its page: why and since when it is
 * hidden, and the owner's appeal: once per hiding; then "awaiting review", and once a moderator
 * turned it down, that the item stays hidden.
 */
export function HiddenBanner({ nftId, standing, isOwner }: { nftId: string; standing: Standing; isOwner: boolean }) {
  const { t, i18n } = useTranslation()
  const { decide } = useModerationActions()
  const [appealing, setAppealing] = useState(false)
  if (!standing.hidden) return null
  const lng = i18n.resolvedLanguage
  const appealState = standing.appealPending ? 'pending' : standing.appealed ? 'reviewed' : 'none'
  return (
    <Box role="status" borderWidth="1px" borderColor="red.muted" bg="red.subtle" borderRadius="xl" p="4" mb="6" data-testid="hidden-banner" data-appeal={appealState}>
      <Flex gap="3" align="flex-start" direction={{ base: 'column', sm: 'row' }}>
        <Box color="red.fg" pt="0.5" flexShrink={0}>
          <IconEyeOff size="20" aria-hidden />
        </Box>
        <Stack gap="1" flex="1" minW="0">
          <Text fontWeight="semibold" color="red.fg" wordBreak="break-word">
            {t('moderation.hidden.banner', { reason: standing.hiddenReason ?? '' })}
            {standing.hiddenAt ? (
              <Text as="span" fontWeight="normal" title={formatDateTime(standing.hiddenAt, lng)}>
                {' '}
                {t('moderation.hidden.since', { date: formatDate(standing.hiddenAt, lng) })}
              </Text>
            ) : null}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {isOwner ? t('moderation.hidden.ownerText') : t('moderation.hidden.staffText')}
          </Text>
          {appealState === 'pending' ? (
            <Text fontSize="sm" fontWeight="medium" data-testid="appeal-pending">
              {t('moderation.hidden.appealPending')}
            </Text>
          ) : appealState === 'reviewed' ? (
            <Text fontSize="sm" fontWeight="medium" data-testid="appeal-reviewed">
              {t('moderation.hidden.appealReviewed')}
            </Text>
          ) : null}
        </Stack>
        {isOwner && appealState === 'none' ? (
          <Button size="sm" variant="outline" colorPalette="red" bg="bg.panel" flexShrink={0} onClick={() => setAppealing(true)} data-testid="appeal-button">
            <IconScale aria-hidden /> {t('moderation.hidden.appeal')}
          </Button>
        ) : null}
      </Flex>
      {appealing ? (
        <ReasonDialog
          title={t('moderation.hidden.appealTitle')}
          text={t('moderation.hidden.appealText')}
          label={t('moderation.hidden.appealLabel')}
          submitLabel={t('moderation.hidden.appealSubmit')}
          submit={async (text) => {
            await decide('nft', nftId, 'appeal', text)
            notify('success', t('moderation.hidden.appealSent'))
          }}
          onClose={() => setAppealing(false)}
        />
      ) : null}
    </Box>
  )
}
