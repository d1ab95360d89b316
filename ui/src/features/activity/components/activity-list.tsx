import { Box, Button, Center, Flex, Grid, HStack, Icon, Image, Link, Skeleton, Stack, Text } from '@chakra-ui/react'
import type { IconType } from 'react-icons'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  LuArrowRight,
  LuArrowRightLeft,
  LuCircleSlash,
  LuExternalLink,
  LuFlame,
  LuGavel,
  LuHandCoins,
  LuShoppingCart,
  LuSparkles,
  LuTag,
  LuTrendingUp,
} from 'react-icons/lu'
import { Link as RouterLink } from 'react-router'
import { Price } from '@/components/nft/price'
import { Tooltip } from '@/components/ui/tooltip'
import { colorFromName, UserAvatar } from '@/components/user-avatar'
import { useAppConfig } from '@/lib/app-config'
import { useSession } from '@/lib/auth'
import { formatDateTime, formatRelative } from '@/lib/format'
import { useImageSources } from '@/lib/image-sources'
import { explorerLink, profilePath, shortenAddress } from '@/lib/nft/format'
import { usePagedList, useSentinel } from '@/lib/nft/use-paged-list'
import { ACTIVITY_KINDS, ACTIVITY_PAGE_SIZE, ACTIVITY_PATH, type ActivityItem, type ActivityKind, type ActivityPerson, type ActivityScope, fetchActivity } from '../api/activity'
import { ListEnd } from '@/components/list-end'

/** Each kind's icon and colour. */
export const KIND_LOOK: Record<ActivityKind, { icon: IconType; palette: string }> = {
  MINT: { icon: LuSparkles, palette: 'purple' },
  LIST: { icon: LuTag, palette: 'blue' },
  PRICE: { icon: LuTrendingUp, palette: 'cyan' },
  BID: { icon: LuGavel, palette: 'orange' },
  SALE: { icon: LuShoppingCart, palette: 'green' },
  TRANSFER: { icon: LuArrowRightLeft, palette: 'teal' },
  STOP: { icon: LuCircleSlash, palette: 'gray' },
  BURN: { icon: LuFlame, palette: 'red' },
  OFFER: { icon: LuHandCoins, palette: 'yellow' },
}

/**
 * Who a row goes from and to: a sale from its seller to its buyer, a transfer from its sender to
 * its receiver, a bid from its bidder to the owner; the other kinds only have who did them.
 */
export function sides(item: ActivityItem): { from: [string, ActivityPerson | null]; to: [string, ActivityPerson | null] | null } {
  const doer: [string, ActivityPerson | null] = [item.address, item.user]
  const other: [string, ActivityPerson | null] | null = item.counterpart ? [item.counterpart, item.counterpartUser] : null
  if (item.kind === 'SALE' && other) return { from: other, to: doer }
  return { from: doer, to: other }
}

/** A wallet on a row: the user's avatar and name linking to their profile, else the short address. */
function Party({ address, person, label }: { address: string; person: ActivityPerson | null; label: string }) {
  const me = useSession((s) => s.user?.userId)
  const to = profilePath(person?.userId, me)
  const name = person?.username || shortenAddress(address)
  const body = (
    <HStack gap="1.5" minW="0" title={`${label}: ${address}`}>
      {person ? (
        <UserAvatar src={person.avatar} fullName={person.fullName} username={person.username} size="2xs" />
      ) : (
        // A wallet of no account: a disc of its own colour (no letters: "0X" would say nothing).
        <Box boxSize="6" borderRadius="full" flexShrink="0" bg={colorFromName(address)} aria-hidden />
      )}
      <Text as="span" fontSize="sm" fontWeight={person ? 'semibold' : 'normal'} fontFamily={person ? undefined : 'mono'} truncate>
        {name}
      </Text>
    </HStack>
  )
  if (!to) return <Box minW="0" data-testid="activity-party">{body}</Box>
  return (
    <Link asChild minW="0" color="fg" _hover={{ textDecoration: 'none', color: 'brand.fg' }} data-testid="activity-party">
      <RouterLink to={to}>{body}</RouterLink>
    </Link>
  )
}

/** The NFT of a row: its picture and title, linking to its page. */
function NftCell({ item }: { item: ActivityItem }) {
  const image = useImageSources(item.nftFile, '40px', 64)
  const title = item.nftTitle || `#${item.nftId.split('-').slice(1).join('-')}`
  return (
    <Link asChild minW="0" color="fg" _hover={{ textDecoration: 'none', color: 'brand.fg' }}>
      <RouterLink to={`/nft/${encodeURIComponent(item.nftId)}`}>
        <HStack gap="2.5" minW="0">
          <Box boxSize="10" borderRadius="md" overflow="hidden" bg="bg.muted" flexShrink="0">
            {image.src ? <Image {...image} loading="lazy" alt="" w="100%" h="100%" objectFit="cover" /> : null}
          </Box>
          <Text fontWeight="semibold" fontSize="sm" truncate data-testid="activity-nft">
            {title}
          </Text>
        </HStack>
      </RouterLink>
    </Link>
  )
}

/**
 * The grid of a row and of the header from lg on: kind, NFT, price, from, to, time (the NFT left
 * out on an NFT's own page). Narrower, each row stacks its cells.
 */
function columns(showNft: boolean) {
  return {
    lg: showNft
      ? '9.5rem minmax(0, 1.6fr) 7.5rem minmax(0, 1fr) minmax(0, 1fr) 8rem'
      : '9.5rem 7.5rem minmax(0, 1fr) minmax(0, 1fr) 8rem',
  }
}

function ActivityRow({ item, showNft }: { item: ActivityItem; showNft: boolean }) {
  const { t, i18n } = useTranslation()
  const { explorerUrl } = useAppConfig()
  const look = KIND_LOOK[item.kind] ?? KIND_LOOK.MINT
  const { from, to } = sides(item)
  const href = explorerLink(explorerUrl, 'tx', item.transactionHash)
  const label = t(`activity.events.${item.event}`, { defaultValue: t(`activity.kinds.${item.kind}`, { defaultValue: item.kind }) })
  const lng = i18n.resolvedLanguage
  const kind = (
    <HStack gap="2" minW="0">
      <Center boxSize="8" borderRadius="full" bg={`${look.palette}.subtle`} color={`${look.palette}.fg`} flexShrink="0">
        <Icon as={look.icon} boxSize="4" />
      </Center>
      <Text fontSize="sm" fontWeight="medium" truncate data-testid="activity-kind">
        {label}
      </Text>
    </HStack>
  )
  const price = item.price !== null ? <Price value={item.price} fontSize="sm" fontWeight="semibold" /> : <Text as="span" color="fg.subtle">—</Text>
  const time = (
    <HStack gap="1.5" justify="flex-end" minW="0">
      <Tooltip content={formatDateTime(item.timestamp, lng)}>
        <Text as="span" fontSize="xs" color="fg.muted" whiteSpace="nowrap" data-testid="activity-time">
          {formatRelative(item.timestamp, Date.now(), lng)}
        </Text>
      </Tooltip>
      {href ? (
        <Link href={href} target="_blank" rel="noopener noreferrer" color="fg.muted" _hover={{ color: 'brand.fg' }} aria-label={t('activity.viewTransaction')} data-testid="activity-tx">
          <LuExternalLink />
        </Link>
      ) : null}
    </HStack>
  )
  const parties = (
    <>
      <Party address={from[0]} person={from[1]} label={t('activity.columns.from')} />
      {to ? <Party address={to[0]} person={to[1]} label={t('activity.columns.to')} /> : <Box hideBelow="lg" />}
    </>
  )
  return (
    <Box as="li" listStyleType="none" px={{ base: '3', md: '4' }} py="3" borderBottomWidth="1px" _last={{ borderBottomWidth: '0' }} data-testid="activity-row" data-kind={item.kind}>
      {/* Wide (lg on): one line, a column each. */}
      <Grid hideBelow="lg" templateColumns={columns(showNft).lg} gap="4" alignItems="center">
        {kind}
        {showNft ? <NftCell item={item} /> : null}
        <Box>{price}</Box>
        {parties}
        {time}
      </Grid>
      {/* Narrow: the kind and price; the NFT and when; who to whom, the whole width. */}
      <Stack hideFrom="lg" gap="2">
        <Flex justify="space-between" align="center" gap="3">
          {kind}
          <Box flexShrink="0">{price}</Box>
        </Flex>
        {showNft ? (
          <Flex justify="space-between" align="center" gap="3" minW="0">
            <NftCell item={item} />
            <Box flexShrink="0">{time}</Box>
          </Flex>
        ) : null}
        <Flex justify="space-between" align="center" gap="3" minW="0">
          <HStack gap="1.5" minW="0" flex="1">
            <Party address={from[0]} person={from[1]} label={t('activity.columns.from')} />
            {to ? (
              <>
                <Icon as={LuArrowRight} color="fg.subtle" flexShrink="0" boxSize="3.5" />
                <Party address={to[0]} person={to[1]} label={t('activity.columns.to')} />
              </>
            ) : null}
          </HStack>
          {showNft ? null : <Box flexShrink="0">{time}</Box>}
        </Flex>
      </Stack>
    </Box>
  )
}

/** The kind filter: All, then each kind; one at a time. */
function KindFilter({ value, onChange }: { value: ActivityKind | null; onChange: (kind: ActivityKind | null) => void }) {
  const { t } = useTranslation()
  const choice = (kind: ActivityKind | null) => {
    const active = value === kind
    return (
      <Button
        key={kind ?? 'ALL'}
        size="xs"
        borderRadius="full"
        variant={active ? 'solid' : 'outline'}
        colorPalette={active ? 'brand' : 'gray'}
        aria-pressed={active}
        onClick={() => onChange(kind)}
        flexShrink="0"
        data-testid={`activity-kind-${kind ?? 'ALL'}`}
      >
        {kind ? <Icon as={KIND_LOOK[kind].icon} /> : null}
        {kind ? t(`activity.kinds.${kind}`) : t('activity.all')}
      </Button>
    )
  }
  return (
    <Box overflowX="auto" mx={{ base: '-4', md: '0' }} px={{ base: '4', md: '0' }} css={{ scrollbarWidth: 'none' }}>
      <HStack gap="2" role="group" aria-label={t('activity.filter')} w="max-content" pb="1">
        {choice(null)}
        {ACTIVITY_KINDS.map((kind) => choice(kind))}
      </HStack>
    </Box>
  )
}

/**
 * An activity feed (GET /api/activity): the kind filter, then the rows newest first, 20 a page
 * with infinite scroll. `scope` narrows it to an NFT, a collection or a user; `showNft` is off on
 * an NFT's own page, where a new `version` (a trade changed the NFT) reloads the loaded pages.
 */
export function ActivityList({ scope = {}, showNft = true, version }: { scope?: ActivityScope; showNft?: boolean; version?: string }) {
  const { t } = useTranslation()
  const [kind, setKind] = useState<ActivityKind | null>(null)
  const list = usePagedList<ActivityItem>(
    ACTIVITY_PATH,
    { limit: ACTIVITY_PAGE_SIZE, kind: kind ?? undefined, nftId: scope.nftId, collectionId: scope.collectionId, userId: scope.userId },
    fetchActivity,
    // Live: a change to an NFT on a loaded page (a bid, a sale) reloads the pages, new rows first.
    { onError: (error) => console.error('Could not load the activity', error), liveId: (item) => item.nftId },
  )
  const sentinel = useSentinel(list.loadMore, !list.loadingFirst && !list.done && !list.error, list.items.length)
  const { refresh } = list
  const seen = useRef(version)
  useEffect(() => {
    if (seen.current === version) return
    seen.current = version
    void refresh()
  }, [version, refresh])
  const header = (
    <Grid
      hideBelow="lg"
      templateColumns={columns(showNft).lg}
      gap="4"
      px="4"
      py="2.5"
      borderBottomWidth="1px"
      bg="bg.subtle"
      fontSize="xs"
      fontWeight="semibold"
      color="fg.muted"
      textTransform="uppercase"
      letterSpacing="wide"
    >
      <Text>{t('activity.columns.event')}</Text>
      {showNft ? <Text>{t('activity.columns.item')}</Text> : null}
      <Text>{t('activity.columns.price')}</Text>
      <Text>{t('activity.columns.from')}</Text>
      <Text>{t('activity.columns.to')}</Text>
      <Text textAlign="right">{t('activity.columns.time')}</Text>
    </Grid>
  )

  let body
  if (list.loadingFirst) {
    body = (
      <Stack gap="0" p="3" data-testid="activity-loading">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} h="12" my="1.5" borderRadius="md" />
        ))}
      </Stack>
    )
  } else if (list.error && list.items.length === 0) {
    body = (
      <Center py="12">
        <Text color="fg.muted">{t('activity.loadFailed')}</Text>
      </Center>
    )
  } else if (list.items.length === 0) {
    body = (
      <Center py="12" data-testid="activity-empty">
        <Text color="fg.muted">{kind ? t('activity.emptyKind', { kind: t(`activity.kinds.${kind}`) }) : t('activity.empty')}</Text>
      </Center>
    )
  } else {
    body = (
      <Box as="ul" m="0" p="0" data-testid="activity-list">
        {list.items.map((item) => (
          <ActivityRow key={item.id} item={item} showNft={showNft} />
        ))}
      </Box>
    )
  }

  return (
    <Stack gap="4">
      <KindFilter value={kind} onChange={setKind} />
      <Box borderWidth="1px" borderRadius="xl" overflow="hidden" bg="bg.panel">
        {header}
        {body}
      </Box>
      <ListEnd sentinel={sentinel} loading={list.loadingMore} />
    </Stack>
  )
}
