import { Badge, Box, Center, Flex, HStack, IconButton, Image, Menu, Portal, Stack, Text, type TextProps, VisuallyHidden } from '@chakra-ui/react'
import { type ReactNode, Suspense, lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FaHeart, FaRegHeart } from 'react-icons/fa6'
import { LuEllipsisVertical, LuImageOff, LuShieldAlert, LuTimer } from 'react-icons/lu'
import { Link, useNavigate } from 'react-router'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import { IMAGE_SIZES, loadingHints, useImageSources } from '@/lib/image-sources'
import { useNftActions } from '@/lib/nft/actions'
import { removeFromCollection } from '@/lib/nft/api'
import { formatCount, formatCountdown, formatDate, formatDateTime, formatRelative, unbreakable } from '@/lib/format'
import { useCountdown } from '@/lib/nft/countdown'
import { cardTitle, nftTitle } from '@/lib/nft/format'
import type { Nft } from '@/lib/nft/types'
import { AddToCartButton } from './add-to-cart-button'
import { PersonChip } from './person-chip'
import { RarityBadge } from './rarity-badge'
import { Price } from './price'
import type { TranslationKey } from '@/lib/i18n'

// The owner's dialogs (and the dialog code): downloaded the first time an owner picks a menu item.
const AddToCollectionDialog = lazy(() => import('./add-to-collection-dialog').then((m) => ({ default: m.AddToCollectionDialog })))
const ConfirmDialog = lazy(() => import('./confirm-dialog').then((m) => ({ default: m.ConfirmDialog })))

/** Where a card leads: auctions to /auction/{id}, everything else to /explore/{id}. */
export function nftPath(nft: Pick<Nft, '_id' | 'formOfSale'>) {
  return nft.formOfSale === 'AUCTION' ? `/auction/${nft._id}` : `/explore/${nft._id}`
}

/** The auction's top bid, or what a first bid must reach when there is none yet. */
export function auctionLead(auction: NonNullable<Nft['currentAuction']>): { key: TranslationKey; value: string } {
  return Number(auction.auctionHighestBid) > 0
    ? { key: 'nft.card.topBid', value: auction.auctionHighestBid }
    : { key: 'nft.card.minimumBid', value: auction.auctionStartPrice }
}

/** A card's price; '' (the update page's preview before a price is typed) shows a dash, not "0 MATIC". */
function CardPrice({ value, ...rest }: { value: string | number | null | undefined } & TextProps) {
  const { t } = useTranslation()
  if (String(value ?? '').trim() === '') {
    return (
      <Text as="span" title={t('nft.card.noPriceYet')} data-testid="card-no-price" {...rest}>
        <span aria-hidden="true">—</span>
        <VisuallyHidden>{t('nft.card.noPriceYet')}</VisuallyHidden>
      </Text>
    )
  }
  return <Price value={value} {...rest} />
}

function AuctionPrices({ nft }: { nft: Nft }) {
  const { t, i18n } = useTranslation()
  const auction = nft.currentAuction
  const left = useCountdown(auction && !auction.auctionEnded ? auction.auctionEndHours : null)
  if (!auction || auction.auctionEnded || left?.done) {
    return (
      <Text fontSize="sm" fontWeight="semibold" color="fg.muted" data-testid="auction-ended">
        {t('nft.card.auctionEnded')}
      </Text>
    )
  }
  const lead = auctionLead(auction)
  return (
    <Stack gap="1.5">
      {/* Side by side, or one under the other in a phone's two-column grid. */}
      <Flex direction={{ base: 'column', sm: 'row' }} justify="space-between" gap={{ base: '1', sm: '2' }} fontSize="sm">
        <Stack gap="0" data-testid="card-lead" data-kind={lead.key}>
          <Text fontSize="2xs" color="fg.subtle" textTransform="uppercase">
            {t(lead.key)}
          </Text>
          <CardPrice value={lead.value} fontWeight="bold" color="brand.fg" />
        </Stack>
        <Stack gap="0" textAlign={{ base: 'left', sm: 'right' }}>
          <Text fontSize="2xs" color="fg.subtle" textTransform="uppercase">
            {t('nft.card.buyNow')}
          </Text>
          <CardPrice value={auction.auctionBuyNowPrice || nft.fixedPrice} fontWeight="bold" />
        </Stack>
      </Flex>
      {left && (
        <HStack gap="1.5" fontSize="xs" color="fg.muted" data-testid="card-countdown">
          <LuTimer />
          <Text fontVariantNumeric="tabular-nums" title={formatDateTime(auction.auctionEndHours, i18n.resolvedLanguage)}>
            {formatCountdown(left, i18n.resolvedLanguage)}
          </Text>
        </HStack>
      )}
    </Stack>
  )
}

type Pending = 'burn' | 'stop' | 'remove' | null

/**
 * Runs after the menu closed: the menu hands focus back to its trigger as it closes, and a dialog
 * opened before that would take the focus change for a click outside and close again.
 */
const afterMenuCloses = (open: () => void) => () => void setTimeout(open, 0)

/**
 * An NFT in a grid (marketplace.md "NFT card"): image, title (25 chars), price or auction data,
 * creator and owner chips, age and likes. The owner gets a menu: Add to collection; Update NFT,
 * Stop Auction or Stop Sale; Burn NFT when not for sale. In a collection view (`collectionId`)
 * the menu holds only Remove from Collection. `onChanged` runs after an action changed the NFT.
 * `footer` adds a row under the card's body (my bids: the bid and its status); `preview` (the
 * update page's live preview) shows the card without the owner menu. `eager`: the card is above
 * the fold on arrival, so its image loads at once and first.
 */
export function NftCard({
  nft,
  collectionId,
  onChanged,
  footer,
  preview = false,
  eager = false,
}: {
  nft: Nft
  collectionId?: string
  onChanged?: () => void
  footer?: ReactNode
  preview?: boolean
  eager?: boolean
}) {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const me = useSession((s) => s.user?.userId)
  const actions = useNftActions(nft)
  const [pending, setPending] = useState<Pending>(null)
  const [adding, setAdding] = useState(false)
  const [dialogsWanted, setDialogsWanted] = useState(false)
  if (!dialogsWanted && (pending || adding)) setDialogsWanted(true)
  const isOwner = !preview && !!me && nft.currentOwner?.userId === me
  // A listing's age counts from when it was put on sale, as "most recent" orders them.
  const since = (nft.formOfSale !== 'NOT_FOR_SALE' && nft.listedAt) || nft.createdAt || nft.updatedAt
  const path = nftPath(nft)
  const image = useImageSources(nft.file, IMAGE_SIZES.card)
  // A stolen-item hold: shown until its end (the card re-renders then).
  const holdLeft = useCountdown(nft.saleHeldUntil)
  const heldUntil = holdLeft && !holdLeft.done ? nft.saleHeldUntil : null
  // A file withheld (451: every NFT using it was hidden; its owner still lists it) or gone: a placeholder, not a broken image.
  const [imageFailed, setImageFailed] = useState<string | null>(null)

  const stopLabel = nft.formOfSale === 'AUCTION' ? t('nft.card.stopAuction') : t('nft.card.stopSale')
  const afterAction = (outcome: { ok: boolean } | undefined) => {
    if (outcome?.ok) onChanged?.()
  }
  const remove = async () => {
    if (!collectionId) return
    try {
      const { message } = await removeFromCollection(collectionId, nft._id)
      notify('success', message || t('nft.card.removed'))
      onChanged?.()
    } catch (error) {
      console.error('Could not remove the NFT from the collection', error)
      notify('error', errorMessage(error, t('nft.card.removeFailed')))
    }
  }

  return (
    <Stack
      gap="0"
      bg="bg.panel"
      borderRadius="2xl"
      borderWidth="1px"
      overflow="hidden"
      boxShadow="card"
      transition="transform 0.15s"
      _hover={{ transform: 'translateY(-3px)' }}
      data-testid="nft-card"
      position="relative"
    >
      <Link to={path} aria-label={nftTitle(nft)}>
        <Box position="relative" bg="bg.muted" aspectRatio={1}>
          {nft.file && imageFailed !== nft.file ? (
            <Image {...image} {...loadingHints(eager)} alt={nftTitle(nft)} w="100%" h="100%" objectFit="cover" onError={() => setImageFailed(nft.file)} />
          ) : (
            <Center h="100%" color="fg.subtle" data-testid="card-image-placeholder">
              <LuImageOff size="32" />
            </Center>
          )}
          <HStack position="absolute" top="3" left="3" bg="blackAlpha.600" color="white" px="2.5" py="1" borderRadius="full" fontSize="xs" gap="1.5" backdropFilter="blur(6px)" data-testid="card-likes">
            {nft.isLiked ? <FaHeart color="#ec4899" /> : <FaRegHeart />}
            <Text>{formatCount(nft.totalLikes ?? 0, i18n.resolvedLanguage)}</Text>
          </HStack>
          <HStack position="absolute" bottom="3" left="3" gap="1.5">
            {nft.formOfSale === 'AUCTION' && (
              <Badge colorPalette="purple" variant="solid" borderRadius="full">
                {t('nft.card.auction')}
              </Badge>
            )}
            {heldUntil && (
              <Badge colorPalette="red" variant="solid" borderRadius="full" gap="1" data-testid="card-held">
                <LuShieldAlert aria-hidden="true" />
                {t('nft.card.saleHeld')}
              </Badge>
            )}
            <RarityBadge rarity={nft.rarity} />
          </HStack>
        </Box>
      </Link>
      {!preview && !isOwner && !heldUntil && nft.formOfSale === 'FIXEDPRICE' && <AddToCartButton nft={nft} overlay />}
      {isOwner && (
        <Menu.Root positioning={{ placement: 'bottom-end' }}>
          <Menu.Trigger asChild>
            <IconButton aria-label={t('nft.card.menu')} size="sm" variant="solid" position="absolute" top="2" right="2" borderRadius="full" bg="blackAlpha.600" color="white" _hover={{ bg: 'blackAlpha.800' }} data-testid="card-menu">
              <LuEllipsisVertical />
            </IconButton>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content minW="48">
                {collectionId ? (
                  <Menu.Item value="remove" onSelect={afterMenuCloses(() => setPending('remove'))}>
                    {t('nft.card.removeFromCollection')}
                  </Menu.Item>
                ) : (
                  <>
                    <Menu.Item value="collection" onSelect={afterMenuCloses(() => setAdding(true))}>
                      {t('nft.card.addToCollection')}
                    </Menu.Item>
                    {nft.formOfSale === 'NOT_FOR_SALE' ? (
                      <Menu.Item value="update" onSelect={() => navigate(`/nft/update/${nft._id}`)}>
                        {t('nft.card.updateNft')}
                      </Menu.Item>
                    ) : (
                      <Menu.Item value="stop" onSelect={afterMenuCloses(() => setPending('stop'))}>
                        {stopLabel}
                      </Menu.Item>
                    )}
                    {nft.formOfSale === 'NOT_FOR_SALE' && (
                      <Menu.Item value="burn" color="fg.error" onSelect={afterMenuCloses(() => setPending('burn'))}>
                        {t('nft.card.burnNft')}
                      </Menu.Item>
                    )}
                  </>
                )}
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      )}
      <Stack p={{ base: '3', md: '4' }} gap={{ base: '2', md: '3' }} flex="1">
        <Link to={path}>
          <Text fontWeight="bold" fontSize={{ base: 'sm', md: 'md' }} lineClamp={1} title={nftTitle(nft)}>
            {cardTitle(nftTitle(nft))}
          </Text>
        </Link>
        {heldUntil ? (
          // The day only, so a two-column phone card keeps it to two lines; the hour in its title.
          <Text
            fontSize={{ base: 'xs', md: 'sm' }}
            color="fg.error"
            fontWeight="medium"
            title={formatDateTime(heldUntil, i18n.resolvedLanguage)}
            data-testid="card-held-until"
          >
            {t('nft.card.saleHeldUntil', { date: unbreakable(formatDate(heldUntil, i18n.resolvedLanguage)) })}
          </Text>
        ) : nft.formOfSale === 'AUCTION' ? (
          <AuctionPrices nft={nft} />
        ) : nft.formOfSale === 'FIXEDPRICE' ? (
          <HStack justify="space-between">
            <Text fontSize="2xs" color="fg.subtle" textTransform="uppercase">
              {t('nft.card.price')}
            </Text>
            <CardPrice value={nft.fixedPrice} fontWeight="bold" color="brand.fg" />
          </HStack>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            {t('nft.card.notForSale')}
          </Text>
        )}
        {/* Two columns on a phone: the chips one under the other, so each name keeps its width. */}
        <Flex direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ base: 'start', sm: 'center' }} gap={{ base: '1.5', sm: '2' }} mt="auto">
          <PersonChip label={t('nft.creator')} person={nft.creator} address={nft.creator?.address} verified={nft.creator?.verified} />
          <PersonChip label={t('nft.owner')} person={nft.currentOwner} address={nft.currentOwner?.ownerAddress} />
        </Flex>
        <Text fontSize="xs" color="fg.subtle" title={formatDateTime(since, i18n.resolvedLanguage)}>
          {formatRelative(since, Date.now(), i18n.resolvedLanguage)}
        </Text>
        {footer && (
          <Box borderTopWidth="1px" pt="3">
            {footer}
          </Box>
        )}
      </Stack>

      {dialogsWanted && (
        <Suspense fallback={null}>
          {adding && <AddToCollectionDialog nftId={nft._id} open={adding} onClose={() => setAdding(false)} onAdded={onChanged} />}
          <ConfirmDialog
            open={pending === 'burn'}
            title={t('nft.card.burnNft')}
            text={t('nft.card.confirmBurn')}
            confirmLabel={t('nft.card.burnNft')}
            danger
            onConfirm={() => void Promise.resolve(actions.burn()).then(afterAction)}
            onClose={() => setPending(null)}
          />
          <ConfirmDialog
            open={pending === 'stop'}
            title={stopLabel}
            text={t('nft.card.confirmStop')}
            confirmLabel={stopLabel}
            danger
            onConfirm={() => void Promise.resolve(actions.stopSale()).then(afterAction)}
            onClose={() => setPending(null)}
          />
          <ConfirmDialog
            open={pending === 'remove'}
            title={t('nft.card.removeFromCollection')}
            text={t('nft.card.confirmRemove')}
            confirmLabel={t('nft.card.remove')}
            danger
            onConfirm={() => void remove()}
            onClose={() => setPending(null)}
          />
        </Suspense>
      )}
    </Stack>
  )
}
