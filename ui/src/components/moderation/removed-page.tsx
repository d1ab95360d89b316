import { Button, Flex, Heading, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { IconEyeOff } from '@/components/moderation/icons'
import { Link } from 'react-router'
import { PageContainer } from '@/components/page-container'
import { formatDate } from '@/lib/format'
import { type TargetKind, useStanding } from '@/lib/moderation/api'

/** The reason after the server's "…hidden by the moderators: " prefix, when its standing did not come. */
function reasonFromMessage(message: string) {
  const at = message.indexOf(': ')
  return at >= 0 ? message.slice(at + 2) : ''
}

/**
 * What anyone but the owner and the staff get for a hidden NFT or collection (the server answers
 * 451): the item was removed, why and since when, and where the decision is on the public record.
 */
export function RemovedPage({ kind, targetId, message }: { kind: TargetKind; targetId: string; message: string }) {
  const { t, i18n } = useTranslation()
  const { data: standing } = useStanding(kind, targetId)
  const reason = standing?.hiddenReason || reasonFromMessage(message)
  return (
    <PageContainer>
      <Stack align="center" textAlign="center" gap="4" py={{ base: '10', md: '16' }} maxW="xl" mx="auto" data-testid="nft-removed">
        <Flex boxSize="16" borderRadius="full" bg="bg.muted" align="center" justify="center" color="fg.muted">
          <IconEyeOff size="28" aria-hidden />
        </Flex>
        <Heading as="h1" size="xl">
          {t('moderation.removed.title')}
        </Heading>
        {reason ? (
          <Text color="fg.muted" wordBreak="break-word" data-testid="removed-reason">
            {t('moderation.removed.reason', { reason })}
          </Text>
        ) : null}
        {standing?.hiddenAt ? (
          <Text color="fg.subtle" fontSize="sm">
            {t('moderation.removed.since', { date: formatDate(standing.hiddenAt, i18n.resolvedLanguage) })}
          </Text>
        ) : null}
        <Text color="fg.muted" fontSize="sm">
          {t('moderation.removed.text')}
        </Text>
        <Flex gap="3" wrap="wrap" justify="center">
          <Button asChild colorPalette="brand" borderRadius="full">
            <Link to="/transparency" data-testid="removed-transparency">
              {t('moderation.removed.record')}
            </Link>
          </Button>
          <Button asChild variant="outline" borderRadius="full">
            <Link to={kind === 'collection' ? '/collections' : '/explore'}>{kind === 'collection' ? t('moderation.removed.collections') : t('moderation.removed.explore')}</Link>
          </Button>
        </Flex>
      </Stack>
    </PageContainer>
  )
}
