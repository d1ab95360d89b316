import { Alert, Box, Button, Field, Flex, HStack, Input, Stack, Text } from '@chakra-ui/react'
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate, useSearchParams } from 'react-router'
import { parseEther } from 'viem'
import useSWR from 'swr'
import { ConfirmDialog } from '@/components/nft/confirm-dialog'
import { OwnerWalletNotice } from '@/components/nft/owner-wallet-notice'
import { Price } from '@/components/nft/price'
import { AddToCartButton } from '@/components/nft/add-to-cart-button'
import { MakeOfferDialog } from '@/features/offers/components/make-offer-dialog'
import { OfferBox } from '@/features/offers/components/offer-box'
import { useOfferDecisions } from '@/features/offers/components/offer-decisions'
import { useAppConfig } from '@/lib/app-config'
import { useSession } from '@/lib/auth'
import { CURRENCY, formatDateTime, formatMaticNumber, weiToDecimal } from '@/lib/format'
import { useLiveChanges } from '@/lib/live/live-store'
import type { Change } from '@/lib/live/stream'
import type { useNftActions } from '@/lib/nft/actions'
import { useCountdown } from '@/lib/nft/countdown'
import { isLiveAuction, nftTitle, ownerAddress } from '@/lib/nft/format'
import { useOfferActions } from '@/lib/offers/actions'
import { useMyOpenOffer } from '@/lib/offers/api'
import type { Nft } from '@/lib/nft/types'
import { loadChain } from '@/lib/wallet-connection'
import { CountdownBoxes } from './countdown-boxes'
import type { TranslationKey } from '@/lib/i18n'

/** The bid input's placeholder (MATIC). */
export const BID_PLACEHOLDER = '0.01'
const DECIMAL = /^\d*\.?\d+$|^\d+\.$/

/** The minimum bid as shown: 3 decimals rounded up, so a bid of what is shown is never below it ("0.283" for 0.28245). */
export function shownMinimum(minimumWei: bigint, lng?: string): string {
  return formatMaticNumber(weiToDecimal(minimumWei), lng, { rounding: 'up' })
}

/**
 * Validates a bid amount (numeric, required, at least 0, at least the minimum raise, below the
 * buy-now price, as the contract requires): a translation key or null.
 */
export function bidError(
  amount: string,
  minimumWei: bigint | undefined,
  lng?: string,
  buyNowWei?: bigint,
): { key: TranslationKey; min?: string } | null {
  const value = amount.trim()
  if (!value) return { key: 'trade.bidRequired' }
  if (!DECIMAL.test(value)) return { key: 'trade.bidNumeric' }
  let wei: bigint
  try {
    wei = parseEther(value)
  } catch {
    return { key: 'trade.bidNumeric' }
  }
  if (wei <= 0n) return { key: 'trade.bidPositive' }
  if (minimumWei !== undefined && wei < minimumWei) return { key: 'trade.bidTooLow', min: shownMinimum(minimumWei, lng) }
  if (buyNowWei !== undefined && wei >= buyNowWei) return { key: 'trade.bidAtBuyNow', min: formatMaticNumber(weiToDecimal(buyNowWei), lng) }
  return null
}

/** An auction's buy-now price in wei, when it has one (a bid must stay below it). */
function buyNowOf(nft: Nft): bigint | undefined {
  if (nft.formOfSale !== 'AUCTION' || !nft.fixedPriceWei) return undefined
  const wei = BigInt(nft.fixedPriceWei)
  return wei > 0n ? wei : undefined
}

/**
 * The bid form; `focus`: opened from the action bar, so it scrolls into view with the amount
 * focused. Its minimum is the contract's, read again whenever the NFT changes live (another
 * person's bid) and once more on submit: a bid below it is refused here, not by the chain.
 */
function BidBox({ nft, onBid, focus }: { nft: Nft; onBid: (amount: string) => Promise<unknown>; focus: boolean }) {
  const { t, i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (!focus) return
    input.current?.scrollIntoView({ block: 'center', behavior: 'smooth' })
    input.current?.focus({ preventScroll: true })
  }, [focus])
  const { contractAddress } = useAppConfig()
  const [amount, setAmount] = useState('')
  const [error, setError] = useState<{ key: TranslationKey; min?: string } | null>(null)
  const [sending, setSending] = useState(false)
  // Read from the contract (the chain runtime loads with the first bid box).
  const minimum = useSWR(contractAddress ? ['minimumBid', contractAddress, nft.nftTokenId] : null, async () =>
    (await loadChain()).minimumBid(contractAddress, BigInt(nft.nftTokenId)),
  { shouldRetryOnError: false, revalidateOnFocus: false })
  const minimumWei = minimum.data
  const { mutate: reloadMinimum } = minimum
  // Another person's bid moves the minimum: the stream says so (one's own is read again on submit).
  const onChange = useCallback(
    (change: Change) => {
      if (change.nfts.some((n) => n.nftId === nft._id)) void reloadMinimum()
    },
    [nft._id, reloadMinimum],
  )
  const onReset = useCallback(() => void reloadMinimum(), [reloadMinimum])
  useLiveChanges(onChange, onReset)
  // The minimum the form opened with: when it rises meanwhile, the form says so.
  const [firstMinimum, setFirstMinimum] = useState<bigint | undefined>(undefined)
  if (firstMinimum === undefined && minimumWei !== undefined) setFirstMinimum(minimumWei)
  const rose = firstMinimum !== undefined && minimumWei !== undefined && minimumWei > firstMinimum
  // Once the minimum reaches the buy-now price no bid can be placed: only buying it is left.
  const buyNowWei = buyNowOf(nft)
  const onlyBuy = buyNowWei !== undefined && minimumWei !== undefined && minimumWei >= buyNowWei
  const submit = async () => {
    const problem = bidError(amount, minimumWei, lng, buyNowWei)
    setError(problem)
    if (problem) return
    setSending(true)
    try {
      // The minimum may have moved since it was read: read it again before asking the wallet.
      const fresh = contractAddress ? await reloadMinimum().catch(() => minimumWei) : minimumWei
      const late = bidError(amount, fresh, lng, buyNowWei)
      if (late) {
        setError(late)
        return
      }
      const outcome = (await onBid(amount.trim())) as { ok?: boolean } | undefined
      if (outcome?.ok) {
        setAmount('')
        // One's own bid raised the minimum: that is no news to tell.
        setFirstMinimum(await reloadMinimum().catch(() => undefined))
      }
    } finally {
      setSending(false)
      void reloadMinimum()
    }
  }
  return (
    <Stack gap="3" data-testid="bid-box">
      <Field.Root invalid={!!error} required>
        <Field.Label>
          {t('trade.bidAmount')}
          <Field.RequiredIndicator />
        </Field.Label>
        <HStack w="100%" align="stretch">
          <Input
            ref={input}
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            required
            placeholder={BID_PLACEHOLDER}
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value)
              setError(null)
            }}
            aria-label={t('trade.bidAmount')}
          />
          <Flex align="center" px="3" bg="bg.muted" borderRadius="md" fontWeight="semibold" fontSize="sm">
            {CURRENCY}
          </Flex>
        </HStack>
        {minimumWei !== undefined && (
          <Field.HelperText
            data-testid="minimum-bid"
            data-wei={minimumWei.toString()}
            aria-live="polite"
            color={rose || onlyBuy ? 'fg.warning' : undefined}
          >
            {onlyBuy
              ? t('trade.minimumReachesBuyNow', { amount: formatMaticNumber(weiToDecimal(buyNowWei), lng) })
              : rose
                ? t('trade.minimumRose', { amount: shownMinimum(minimumWei, lng) })
                : t('trade.minimumBid', { amount: shownMinimum(minimumWei, lng) })}
          </Field.HelperText>
        )}
        {error && <Field.ErrorText>{t(error.key, { min: error.min })}</Field.ErrorText>}
      </Field.Root>
      <Button colorPalette="brand" onClick={() => void submit()} loading={sending} disabled={onlyBuy}>
        {t('trade.submitBid')}
      </Button>
    </Stack>
  )
}

/**
 * Price or auction data, and what the viewer may do: buy, bid (non-owners, while for sale), stop
 * the sale, update or burn (the owner), or the spec's message why nothing can be done.
 */
/** A stolen-item hold on the NFT's sale: until when, why, and what it means to its owner or a buyer. */
function SaleHeldNotice({ until, evidence, isOwner }: { until: string; evidence: boolean; isOwner: boolean }) {
  const { t, i18n } = useTranslation()
  return (
    <Alert.Root status="error" borderRadius="lg" data-testid="sale-held">
      <Alert.Indicator />
      <Stack gap="1">
        <Alert.Title data-testid="sale-held-until">{t('trade.saleHeldTitle', { date: formatDateTime(until, i18n.resolvedLanguage) })}</Alert.Title>
        <Alert.Description>{isOwner ? t('trade.saleHeldOwnerMessage') : t('trade.saleHeldMessage')}</Alert.Description>
        {evidence && <Alert.Description color="fg.muted">{t('trade.saleHeldEvidence')}</Alert.Description>}
      </Stack>
    </Alert.Root>
  )
}

export function TradePanel({ nft, isOwner, actions }: { nft: Nft; isOwner: boolean; actions: ReturnType<typeof useNftActions> }) {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  // `?bid=1` (my bids' "Raise bid") opens the bid box at once.
  const [params] = useSearchParams()
  const [bidding, setBidding] = useState<false | 'panel' | 'bar'>(() => (params.get('bid') === '1' ? 'panel' : false))
  // ... and so does a later visit with it while the page is open (an outbid snackbar's "Bid again"),
  // scrolled to with the amount focused.
  const location = useLocation()
  const seenVisit = useRef(location.key)
  useEffect(() => {
    if (seenVisit.current === location.key) return
    seenVisit.current = location.key
    if (new URLSearchParams(location.search).get('bid') === '1') setBidding('bar')
  }, [location.key, location.search])
  // The panel's own buttons: while they are on screen the action bar is not needed.
  const [buttons, setButtons] = useState<HTMLDivElement | null>(null)
  const buttonsInView = useInView(buttons)
  const singleColumn = useSingleColumn()
  const [pending, setPending] = useState<'stop' | 'burn' | null>(null)
  const auction = nft.currentAuction
  const isAuction = nft.formOfSale === 'AUCTION'
  const live = isLiveAuction(nft)
  const forSale = nft.formOfSale === 'FIXEDPRICE' || live
  // A stolen-item hold: the contract refuses every sale until its end (the panel re-renders then).
  const holdLeft = useCountdown(nft.saleHeldUntil)
  const heldUntil = holdLeft && !holdLeft.done ? nft.saleHeldUntil : null
  const stopLabel = isAuction ? t('nft.card.stopAuction') : t('nft.card.stopSale')
  // Offers: anyone but the owner, on an NFT not in an auction (issue 20).
  const canOffer = !isOwner && !isAuction
  const wallets = useSession((s) => s.user?.connectedWallet)
  const myAddresses = (wallets ?? []).map((w) => w.walletAddress)
  const myOffer = useMyOpenOffer(canOffer ? nft._id : undefined, myAddresses).offer
  const offerActions = useOfferActions({ onDetailPage: true })
  const decisions = useOfferDecisions(offerActions)
  const [offering, setOffering] = useState(false)
  const openOffer = () => {
    if (offerActions.guard()) setOffering(true)
  }
  const offerBox = (primary: boolean) =>
    canOffer ? <OfferBox mine={myOffer} primary={primary} onMake={openOffer} onCancel={(offer) => decisions.ask('cancel', offer, nft)} /> : null

  return (
    <Stack gap="4" p={{ base: '4', md: '5' }} borderWidth="1px" borderRadius="2xl" bg="bg.panel" data-testid="trade-panel">
      {nft.formOfSale === 'FIXEDPRICE' && (
        <Stack gap="0">
          <Text fontSize="xs" color="fg.subtle" textTransform="uppercase">
            {t('nft.card.price')}
          </Text>
          <Price value={nft.fixedPrice} fontSize="2xl" fontWeight="bold" color="brand.fg" data-testid="detail-price" />
        </Stack>
      )}
      {isAuction && auction && (
        <Stack gap="3">
          <Flex gap="6" wrap="wrap">
            <Stack gap="0">
              <Text fontSize="xs" color="fg.subtle" textTransform="uppercase">
                {t('nft.card.basePrice')}
              </Text>
              <Price value={auction.auctionStartPrice} fontSize="xl" fontWeight="bold" />
            </Stack>
            <Stack gap="0">
              <Text fontSize="xs" color="fg.subtle" textTransform="uppercase">
                {t('nft.highestBid')}
              </Text>
              {Number(auction.auctionHighestBid || nft.highestBid) > 0 ? (
                <Price value={auction.auctionHighestBid || nft.highestBid} fontSize="xl" fontWeight="bold" color="brand.fg" data-testid="highest-bid" />
              ) : (
                <Text fontSize="xl" fontWeight="bold" color="fg.muted" data-testid="highest-bid">
                  {t('nft.noBidsYet')}
                </Text>
              )}
            </Stack>
            <Stack gap="0">
              <Text fontSize="xs" color="fg.subtle" textTransform="uppercase">
                {t('nft.card.buyNow')}
              </Text>
              <Price value={auction.auctionBuyNowPrice || nft.fixedPrice} fontSize="xl" fontWeight="bold" />
            </Stack>
          </Flex>
          {live ? (
            <CountdownBoxes end={auction.auctionEndHours} />
          ) : (
            <Text fontWeight="semibold" color="fg.muted" data-testid="auction-ended">
              {t('nft.card.auctionEnded')}
            </Text>
          )}
        </Stack>
      )}

      {heldUntil && <SaleHeldNotice until={heldUntil} evidence={!!nft.saleHoldEvidence} isOwner={isOwner} />}
      {isOwner ? (
        <Stack gap="3">
          {!heldUntil && (
            <Alert.Root status="info" borderRadius="lg">
              <Alert.Indicator />
              <Alert.Description data-testid="owner-message">{t('trade.ownerMessage')}</Alert.Description>
            </Alert.Root>
          )}
          <OwnerWalletNotice ownerAddress={ownerAddress(nft)} />
          <HStack wrap="wrap" gap="2" ref={setButtons}>
            {nft.formOfSale === 'NOT_FOR_SALE' ? (
              <>
                <Button
                  variant="outline"
                  onClick={() => navigate(`/nft/update/${nft._id}`)}
                  disabled={!!heldUntil}
                  title={heldUntil ? t('trade.saleHeldReason', { date: formatDateTime(heldUntil, i18n.resolvedLanguage) }) : undefined}
                  data-testid="owner-update"
                >
                  {t('nft.card.updateNft')}
                </Button>
                <Button variant="outline" colorPalette="red" onClick={() => setPending('burn')}>
                  {t('nft.card.burnNft')}
                </Button>
              </>
            ) : (
              <Button variant="outline" colorPalette="red" onClick={() => setPending('stop')}>
                {stopLabel}
              </Button>
            )}
          </HStack>
        </Stack>
      ) : heldUntil ? (
        <HStack gap="3" wrap="wrap" ref={setButtons}>
          {/* What a buyer came for, disabled with the reason (the contract refuses it until then). */}
          <Button
            colorPalette="brand"
            size="lg"
            flex="1 1 auto"
            disabled
            title={t('trade.saleHeldReason', { date: formatDateTime(heldUntil, i18n.resolvedLanguage) })}
            data-testid={forSale ? 'buy-now' : 'held-offer'}
          >
            {forSale ? t('trade.buyNow') : t('offers.make')}
          </Button>
        </HStack>
      ) : !forSale ? (
        nft.formOfSale === 'NOT_FOR_SALE' ? (
          <Stack gap="3">
            <Alert.Root status="warning" borderRadius="lg">
              <Alert.Indicator />
              <Stack gap="1">
                <Alert.Description data-testid="not-for-sale-message">{t('trade.notForSaleMessage')}</Alert.Description>
                <Alert.Description color="fg.muted">{t('offers.notForSaleHint')}</Alert.Description>
              </Stack>
            </Alert.Root>
            <Box ref={setButtons}>{offerBox(true)}</Box>
          </Stack>
        ) : null
      ) : (
        <Stack gap="3">
          <HStack gap="3" wrap="wrap" ref={setButtons}>
            <Button colorPalette="brand" size="lg" flex="1 1 auto" onClick={() => void actions.buy()} data-testid="buy-now">
              {t('trade.buyNow')}
            </Button>
            {nft.formOfSale === 'FIXEDPRICE' && <AddToCartButton nft={nft} size="lg" />}
            {live && (
              <Button
                variant="outline"
                size="lg"
                flex="1 1 auto"
                onClick={() => {
                  if (actions.guard()) setBidding((b) => (b ? false : 'panel'))
                }}
                data-testid="place-bid"
              >
                {t('trade.placeBid')}
              </Button>
            )}
          </HStack>
          {live && bidding && <BidBox nft={nft} onBid={async (amount) => actions.bid(amount)} focus={bidding === 'bar'} />}
          {offerBox(false)}
        </Stack>
      )}
      {singleColumn && (isOwner || (!heldUntil && (forSale || (canOffer && nft.formOfSale === 'NOT_FOR_SALE')))) && !buttonsInView && (
        <ActionBar
          nft={nft}
          isOwner={isOwner}
          stopLabel={stopLabel}
          onBuy={() => void actions.buy()}
          onBid={
            live
              ? () => {
                  if (actions.guard()) setBidding('bar')
                }
              : undefined
          }
          onUpdate={() => navigate(`/nft/update/${nft._id}`)}
          onPending={setPending}
          onOffer={canOffer ? openOffer : undefined}
        />
      )}
      <Box>
        <MakeOfferDialog
          open={offering}
          title={nftTitle(nft)}
          current={myOffer}
          onSubmit={(amount, expiresAt) => void offerActions.make(nft, amount, expiresAt)}
          onClose={() => setOffering(false)}
        />
        {decisions.dialog}
        <ConfirmDialog
          open={pending === 'stop'}
          title={stopLabel}
          text={t('nft.card.confirmStop')}
          confirmLabel={stopLabel}
          danger
          onConfirm={() => void actions.stopSale()}
          onClose={() => setPending(null)}
        />
        <ConfirmDialog
          open={pending === 'burn'}
          title={t('nft.card.burnNft')}
          text={t('nft.card.confirmBurn')}
          confirmLabel={t('nft.card.burnNft')}
          danger
          onConfirm={() =>
            void Promise.resolve(actions.burn()).then((outcome) => {
              if (outcome?.ok) navigate('/myprofile')
            })
          }
          onClose={() => setPending(null)}
        />
      </Box>
    </Stack>
  )
}

/** Below the `lg` breakpoint (64rem) the detail page is one column, its trade panel far down. */
const SINGLE_COLUMN = '(max-width: 63.98rem)'

function useSingleColumn() {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(SINGLE_COLUMN)
      query.addEventListener('change', onChange)
      return () => query.removeEventListener('change', onChange)
    },
    () => window.matchMedia(SINGLE_COLUMN).matches,
  )
}

/** Whether `target` is on screen above the action bar's height; false where IntersectionObserver is missing. */
function useInView(node: HTMLElement | null) {
  const [inView, setInView] = useState(false)
  useEffect(() => {
    setInView(false)
    if (!node || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(([entry]) => setInView(entry.isIntersecting), { rootMargin: `0px 0px -${ACTION_BAR_CLEARANCE}px 0px` })
    observer.observe(node)
    return () => observer.disconnect()
  }, [node])
  return inView
}

/** The bottom bar and action bar together, in px: buttons under them do not count as on screen. */
const ACTION_BAR_CLEARANCE = 144

/**
 * Single-column screens: the price and the primary action (buy or bid; the owner's update, burn
 * or stop), fixed above the bottom navigation while the panel's own buttons are off screen, so a
 * phone reaches them without scrolling past the artwork and the description.
 */
function ActionBar({
  nft,
  isOwner,
  stopLabel,
  onBuy,
  onBid,
  onUpdate,
  onPending,
  onOffer,
}: {
  nft: Nft
  isOwner: boolean
  stopLabel: string
  onBuy: () => void
  onBid?: () => void
  onUpdate: () => void
  onPending: (pending: 'stop' | 'burn') => void
  /** A visitor may make an offer (the NFT is not in an auction). */
  onOffer?: () => void
}) {
  const { t } = useTranslation()
  const auction = nft.currentAuction
  const isAuction = nft.formOfSale === 'AUCTION'
  const highest = auction?.auctionHighestBid || nft.highestBid
  const hasBid = !!highest && Number(highest) > 0
  return (
    <Box
      position="fixed"
      insetX="0"
      bottom={{ base: 'calc(4rem + env(safe-area-inset-bottom))', md: '0' }}
      zIndex="sticky"
      bg="bg.panel"
      borderTopWidth="1px"
      boxShadow="0 -6px 16px rgba(0,0,0,0.08)"
      px="4"
      py="2.5"
      data-testid="action-bar"
    >
      <Flex maxW="3xl" mx="auto" align="center" gap="3">
        <Stack gap="0" flex="1" minW="0">
          {nft.formOfSale === 'NOT_FOR_SALE' ? (
            <Text fontSize="sm" color="fg.muted" truncate>
              {t('nft.card.notForSale')}
            </Text>
          ) : (
            <>
              <Text fontSize="2xs" color="fg.subtle" textTransform="uppercase" truncate>
                {isAuction ? (hasBid ? t('nft.highestBid') : t('nft.card.basePrice')) : t('nft.card.price')}
              </Text>
              <Price
                value={isAuction ? (hasBid ? highest : auction?.auctionStartPrice) : nft.fixedPrice}
                fontWeight="bold"
                color="brand.fg"
                data-testid="action-bar-price"
              />
            </>
          )}
        </Stack>
        {isOwner ? (
          nft.formOfSale === 'NOT_FOR_SALE' ? (
            <HStack gap="2">
              <Button size="sm" variant="outline" onClick={onUpdate} data-testid="action-bar-update">
                {t('nft.card.updateNft')}
              </Button>
              <Button size="sm" variant="outline" colorPalette="red" onClick={() => onPending('burn')} data-testid="action-bar-burn">
                {t('nft.card.burnNft')}
              </Button>
            </HStack>
          ) : (
            <Button size="sm" variant="outline" colorPalette="red" onClick={() => onPending('stop')} data-testid="action-bar-stop">
              {stopLabel}
            </Button>
          )
        ) : nft.formOfSale === 'NOT_FOR_SALE' ? (
          onOffer ? (
            <Button colorPalette="brand" onClick={onOffer} data-testid="action-bar-offer">
              {t('offers.make')}
            </Button>
          ) : null
        ) : onBid ? (
          <HStack gap="2">
            <Button size="sm" variant="outline" onClick={onBuy} data-testid="action-bar-buy">
              {t('trade.buyNow')}
            </Button>
            <Button size="sm" colorPalette="brand" onClick={onBid} data-testid="action-bar-bid">
              {t('trade.bid')}
            </Button>
          </HStack>
        ) : (
          <Button colorPalette="brand" onClick={onBuy} data-testid="action-bar-buy">
            {t('trade.buyNow')}
          </Button>
        )}
      </Flex>
    </Box>
  )
}
