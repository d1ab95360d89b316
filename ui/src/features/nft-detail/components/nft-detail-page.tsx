import {
  Box,
  Button,
  Center,
  Collapsible,
  Dialog,
  CloseButton,
  Flex,
  Grid,
  Heading,
  HStack,
  IconButton,
  Image,
  Link as ChakraLink,
  Portal,
  SimpleGrid,
  Skeleton,
  Stack,
  Tabs,
  Text,
} from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RarityRank } from '@/components/traits/rarity-rank'
import { FaBookmark, FaHeart, FaRegBookmark, FaRegHeart } from 'react-icons/fa6'
import { LuChevronDown, LuCopy, LuExternalLink, LuImageOff } from 'react-icons/lu'
import { useParams } from 'react-router'
import { useLiveTopic } from '@/lib/live/live-store'
import { useSWRConfig } from 'swr'
import { NotFoundPage } from '@/components/not-found'
import { PersonChip } from '@/components/nft/person-chip'
import { PageContainer } from '@/components/page-container'
import { PriceHistory } from '@/components/insight/price-history'
import { notify } from '@/components/ui/toaster'
import { Tooltip } from '@/components/ui/tooltip'
import { ApiError } from '@/lib/api-client'
import { useAppConfig } from '@/lib/app-config'
import { useSession } from '@/lib/auth'
import { useNftActions } from '@/lib/nft/actions'
import { DETAIL_MESSAGE_DURATION } from '@/lib/nft/trade'
import { nftDetailKey, toggleBookmark, toggleLike, useNftDetail } from '@/lib/nft/api'
import { DESCRIPTION_PREVIEW_MAX, explorerLink, nftTitle, isLiveAuction, ownerAddress, royaltyFee, shortenAddress, TRANSACTION_FEE_PERCENT } from '@/lib/nft/format'
import { IMAGE_SIZES, loadingHints, useImageSources } from '@/lib/image-sources'
import { useMetadataVerification } from '@/lib/nft/metadata'
import type { Nft } from '@/lib/nft/types'
import { currentPath, navigateTo, signInPath } from '@/lib/navigation'
import { truncate } from '@/lib/format'
import { formatDateTime, formatRelative } from '@/lib/format'
import { useMetaTags } from '../hooks/use-meta-tags'
import { OffersTab } from '@/features/offers/components/offers-tab'
import { useOfferActions } from '@/lib/offers/actions'
import { BidsTab } from './bids-tab'
import { HistoryTab } from './history-tab'
import { MetadataState } from './metadata-state'
import { ActivityList } from '@/features/activity/components/activity-list'
import { TradePanel } from './trade-panel'
import { VerificationIcon } from './verification-icon'
import { HiddenBanner } from './hidden-banner'
import { RemovedPage } from '@/components/moderation/removed-page'
import { TargetMenu } from '@/components/moderation/target-menu'
import { useMyRoles, useStanding } from '@/lib/moderation/api'

/** The artwork, as a large rendition (the original is linked below, "View on IPFS"). */
function Artwork({ nft }: { nft: Nft }) {
  const { t } = useTranslation()
  const image = useImageSources(nft.file, IMAGE_SIZES.detail, 960)
  const [state, setState] = useState<'loading' | 'loaded' | 'error'>('loading')
  return (
    <Box position="relative" borderRadius="2xl" overflow="hidden" bg="bg.muted" aspectRatio={1} borderWidth="1px" data-testid="detail-image">
      {state === 'loading' && nft.file && <Skeleton position="absolute" inset="0" data-testid="image-placeholder" />}
      {state === 'error' || !nft.file ? (
        <Center h="100%" color="fg.subtle" flexDirection="column" gap="2">
          <LuImageOff size="40" />
          <Text fontSize="sm">{t('nft.imageFailed')}</Text>
        </Center>
      ) : (
        <Image
          {...image}
          {...loadingHints(true)}
          alt={nft.title}
          w="100%"
          h="100%"
          objectFit="contain"
          opacity={state === 'loaded' ? 1 : 0}
          transition="opacity 0.2s"
          onLoad={() => setState('loaded')}
          onError={() => setState('error')}
        />
      )}
    </Box>
  )
}

function Description({ nft }: { nft: Nft }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const long = (nft.description ?? '').length > DESCRIPTION_PREVIEW_MAX
  return (
    <Box>
      <Text color="fg.muted" whiteSpace="pre-wrap" data-testid="description">
        {truncate(nft.description, DESCRIPTION_PREVIEW_MAX)}
      </Text>
      {long && (
        <Button variant="plain" color="brand.fg" p="0" h="auto" onClick={() => setOpen(true)}>
          {t('nft.readMore')}
        </Button>
      )}
      <Dialog.Root open={open} onOpenChange={(e) => setOpen(e.open)} placement="center" size="lg" scrollBehavior="inside">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>{t('nft.itemDetails')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <Heading size="md">{nft.title}</Heading>
                  <Text whiteSpace="pre-wrap">{nft.description}</Text>
                </Stack>
              </Dialog.Body>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Box>
  )
}

function Properties({ nft }: { nft: Nft }) {
  const { t } = useTranslation()
  const properties = Array.isArray(nft.properties) ? nft.properties : []
  return (
    <Collapsible.Root defaultOpen borderWidth="1px" borderRadius="xl">
      <Collapsible.Trigger asChild>
        <Button variant="ghost" w="100%" justifyContent="space-between" px="4">
          {t('nft.properties')}
          <Collapsible.Indicator transition="transform 0.2s" _open={{ transform: 'rotate(180deg)' }}>
            <LuChevronDown />
          </Collapsible.Indicator>
        </Button>
      </Collapsible.Trigger>
      <Collapsible.Content>
        <Box p="4" pt="0">
          <Box mb={nft.rarity ? '3' : '0'}>
            <RarityRank rarity={nft.rarity} />
          </Box>
          {properties.length === 0 ? (
            <Text color="fg.muted" fontSize="sm">
              {t('nft.noProperties')}
            </Text>
          ) : (
            <SimpleGrid columns={{ base: 2, md: 3 }} gap="2" data-testid="properties">
              {properties.map((p, i) => (
                <Stack key={`${p.key}-${i}`} gap="0" bg="brand.subtle" borderWidth="1px" borderColor="brand.muted" borderRadius="lg" p="2" textAlign="center">
                  <Text fontSize="2xs" color="brand.fg" textTransform="uppercase" truncate>
                    {p.key}
                  </Text>
                  <Text fontSize="sm" fontWeight="semibold" truncate>
                    {p.value}
                  </Text>
                </Stack>
              ))}
            </SimpleGrid>
          )}
        </Box>
      </Collapsible.Content>
    </Collapsible.Root>
  )
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Flex justify="space-between" gap="4" py="2" borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }} fontSize="sm">
      <Text color="fg.muted">{label}</Text>
      <Box textAlign="right" fontWeight="medium" minW="0">
        {children}
      </Box>
    </Flex>
  )
}

function Details({ nft }: { nft: Nft }) {
  const { t } = useTranslation()
  const { explorerUrl } = useAppConfig()
  const tokenLink = explorerLink(explorerUrl, 'token', `${nft.contractAddress}?a=${nft.nftTokenId}`)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(nft.contractAddress)
      notify('success', t('wallet.copied'), DETAIL_MESSAGE_DURATION)
    } catch (error) {
      console.error('Copy failed', error)
    }
  }
  return (
    <Stack gap="0" borderWidth="1px" borderRadius="xl" px="4" py="2" data-testid="details">
      <Row label={t('nft.contractAddress')}>
        <HStack gap="1" justify="flex-end">
          <Text fontFamily="mono" title={nft.contractAddress}>
            {shortenAddress(nft.contractAddress)}
          </Text>
          <IconButton aria-label={t('nft.copyAddress')} size="2xs" variant="ghost" onClick={() => void copy()}>
            <LuCopy />
          </IconButton>
        </HStack>
      </Row>
      <Row label={t('nft.tokenId')}>{nft.nftTokenId}</Row>
      <Row label={t('nft.tokenStandard')}>{nft.contractType || 'ERC721'}</Row>
      <Row label={t('nft.blockchain')}>{t('nft.polygon')}</Row>
      <Row label={t('nft.royaltyFee')}>{`${royaltyFee(nft)}%`}</Row>
      <Row label={t('nft.transactionFee')}>{`${TRANSACTION_FEE_PERCENT}%`}</Row>
      {(nft.file || tokenLink) && (
      <Flex gap="4" pt="3" pb="1" wrap="wrap">
        {nft.file && (
          <ChakraLink href={nft.file} target="_blank" rel="noreferrer" color="brand.fg" fontSize="sm" data-testid="ipfs-link">
            {t('nft.viewOnIpfs')} <LuExternalLink />
          </ChakraLink>
        )}
        {tokenLink && (
          <ChakraLink href={tokenLink} target="_blank" rel="noreferrer" color="brand.fg" fontSize="sm" data-testid="explorer-link">
            {t('nft.viewOnExplorer')} <LuExternalLink />
          </ChakraLink>
        )}
      </Flex>
      )}
    </Stack>
  )
}

/** Like and bookmark toggles: the call first, then the local flip (a failure is only logged). */
function Social({ nft }: { nft: Nft }) {
  const { t } = useTranslation()
  const token = useSession((s) => s.token)
  const { mutate } = useSWRConfig()
  const [busy, setBusy] = useState(false)
  const flip = async (kind: 'like' | 'bookmark') => {
    if (!token) {
      navigateTo(signInPath(currentPath()))
      return
    }
    setBusy(true)
    try {
      if (kind === 'like') await toggleLike(nft._id)
      else await toggleBookmark(nft._id)
      await mutate<Nft>(
        nftDetailKey(nft._id),
        (current) => {
          if (!current) return current
          if (kind === 'bookmark') return { ...current, isBookmarked: !current.isBookmarked }
          const liked = !current.isLiked
          return { ...current, isLiked: liked, totalLikes: Math.max(0, (current.totalLikes ?? 0) + (liked ? 1 : -1)) }
        },
        { revalidate: false },
      )
    } catch (error) {
      console.error(`Could not toggle the ${kind}`, error)
    } finally {
      setBusy(false)
    }
  }
  const likes = nft.totalLikes ?? 0
  return (
    <HStack gap="2">
      <Button variant="outline" size="sm" borderRadius="full" onClick={() => void flip('like')} disabled={busy} aria-pressed={nft.isLiked} data-testid="like-toggle">
        {nft.isLiked ? <FaHeart color="#ec4899" /> : <FaRegHeart />}
        {t('nft.likes', { count: likes })}
      </Button>
      <IconButton
        variant="outline"
        size="sm"
        borderRadius="full"
        aria-label={nft.isBookmarked ? t('nft.removeBookmark') : t('nft.bookmark')}
        aria-pressed={nft.isBookmarked}
        onClick={() => void flip('bookmark')}
        disabled={busy}
        data-testid="bookmark-toggle"
      >
        {nft.isBookmarked ? <FaBookmark /> : <FaRegBookmark />}
      </IconButton>
    </HStack>
  )
}

/**
 * /nft/{id}, /explore/{id} and /auction/{id}: everything the spec's "NFT detail" lists, with the
 * trade actions of the viewer's role and the Recent bid and History tabs.
 */
export function NftDetailPage() {
  const { t, i18n } = useTranslation()
  const { id } = useParams()
  const { ipfsGateway } = useAppConfig()
  const { data: nft, error, isLoading } = useNftDetail(id)
  // A bid, a new price, a sale or an extended end: refetched as it happens (see LiveStream).
  useLiveTopic(id ? `nft:${id}` : null)
  const me = useSession((s) => s.user?.userId)
  const { isModerator } = useMyRoles()
  // Its owner and the staff may see a hidden NFT: they are told why (anyone else gets the 451).
  const mayBeHidden = !!nft && !!me && (nft.currentOwner?.userId === me || isModerator)
  const { data: standing } = useStanding('nft', mayBeHidden ? nft._id : null)
  const actions = useNftActions(nft, { onDetailPage: true })
  const offerActions = useOfferActions({ onDetailPage: true })
  const myAddresses = (useSession((s) => s.user?.connectedWallet) ?? []).map((w) => w.walletAddress)
  const verification = useMetadataVerification(nft, ipfsGateway)
  useMetaTags(nft ? { title: `${nftTitle(nft)} | ${t('app.name')}`, description: truncate(nft.description, DESCRIPTION_PREVIEW_MAX), image: nft.file } : null)

  if (error instanceof ApiError && error.statuscode === 404) return <NotFoundPage />
  if (error instanceof ApiError && error.statuscode === 451 && id) return <RemovedPage kind="nft" targetId={id} message={error.message} />
  if (isLoading || !nft) {
    return (
      <PageContainer>
        {error ? (
          <Center py="20">
            <Text color="fg.muted">{t('nft.loadFailed')}</Text>
          </Center>
        ) : (
          <Grid templateColumns={{ base: '1fr', lg: '1fr 1fr' }} gap="10" data-testid="detail-loading">
            <Skeleton aspectRatio={1} borderRadius="2xl" />
            <Stack gap="4">
              <Skeleton h="10" w="70%" />
              <Skeleton h="24" />
              <Skeleton h="40" />
            </Stack>
          </Grid>
        )}
      </PageContainer>
    )
  }

  const isOwner = !!me && nft.currentOwner?.userId === me
  const live = isLiveAuction(nft)
  const version = `${nft.updatedAt} ${nft.highestBid} ${ownerAddress(nft)}`

  return (
    <PageContainer>
      {standing?.hidden ? <HiddenBanner nftId={nft._id} standing={standing} isOwner={isOwner} /> : null}
      <Grid templateColumns={{ base: '1fr', lg: '1fr 1fr' }} gap={{ base: '6', lg: '10' }} alignItems="start">
        <Stack gap="4" position={{ lg: 'sticky' }} top={{ lg: '24' }}>
          <Artwork nft={nft} />
        </Stack>
        <Stack gap="5" minW="0">
          <Stack gap="2">
            <Flex justify="space-between" align="start" gap="2" wrap="wrap">
              <HStack gap="1" minW="0" align="center">
                <Heading size={{ base: 'xl', md: '3xl' }} wordBreak="break-word" data-testid="detail-title">
                  {nftTitle(nft)}
                </Heading>
                <VerificationIcon state={verification.state} mismatch={verification.mismatch} verify={verification.verify} />
              </HStack>
              <HStack gap="2">
                <Social nft={nft} />
                <TargetMenu kind="nft" targetId={nft._id} name={nftTitle(nft)} own={isOwner} />
              </HStack>
            </Flex>
            <Tooltip content={formatDateTime(nft.createdAt, i18n.resolvedLanguage)}>
              <Text fontSize="sm" color="fg.subtle" w="fit-content" data-testid="created-ago">
                {t('nft.created', { ago: formatRelative(nft.createdAt, Date.now(), i18n.resolvedLanguage) })}
              </Text>
            </Tooltip>
          </Stack>
          <MetadataState nftId={nft._id} />
          <Flex gap="6" wrap="wrap">
            <PersonChip full label={t('nft.creator')} person={nft.creator} address={nft.creator?.address} verified={nft.creator?.verified} testId="nft-creator" />
            <PersonChip full label={t('nft.owner')} person={nft.currentOwner} address={nft.currentOwner?.ownerAddress} testId="nft-owner" />
          </Flex>
          <Description nft={nft} />
          <TradePanel nft={nft} isOwner={isOwner} actions={actions} />
          <Properties nft={nft} />
          <Details nft={nft} />
        </Stack>
      </Grid>
      <Box mt={{ base: '8', md: '12' }}>
        <PriceHistory nftId={nft._id} version={version} />
      </Box>
      <Box mt={{ base: '8', md: '12' }}>
        <Tabs.Root defaultValue={nft.formOfSale === 'AUCTION' ? 'bids' : 'offers'} variant="line" lazyMount>
          <Tabs.List>
            <Tabs.Trigger value="bids">{t('nft.recentBid')}</Tabs.Trigger>
            <Tabs.Trigger value="offers" data-testid="offers-tab">
              {t('offers.tab')}
            </Tabs.Trigger>
            <Tabs.Trigger value="history">{t('nft.history')}</Tabs.Trigger>
            <Tabs.Trigger value="activity">{t('activity.tab')}</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="bids">
            <BidsTab nftId={nft._id} canAnswer={isOwner && live} onAnswer={(accept) => void actions.answerOffer(accept)} version={version} />
          </Tabs.Content>
          <Tabs.Content value="offers">
            <OffersTab nft={nft} isOwner={isOwner} myAddresses={myAddresses} actions={offerActions} />
          </Tabs.Content>
          <Tabs.Content value="history">
            <HistoryTab nftId={nft._id} />
          </Tabs.Content>
          <Tabs.Content value="activity">
            <ActivityList scope={{ nftId: nft._id }} showNft={false} version={version} />
          </Tabs.Content>
        </Tabs.Root>
      </Box>
      {/* Room for the trade panel's action bar, fixed at the bottom of single-column screens. */}
      {(isOwner || nft.formOfSale !== 'AUCTION' || live) && <Box h="16" hideFrom="lg" />}
    </PageContainer>
  )
}
