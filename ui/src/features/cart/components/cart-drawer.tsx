import { Badge, Box, Button, CloseButton, Drawer, Flex, HStack, IconButton, Link, Portal, Separator, Spinner, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuTrash2 } from 'react-icons/lu'
import { Link as RouterLink } from 'react-router'
import { NftThumb } from '@/components/nft/nft-thumb'
import { Price } from '@/components/nft/price'
import { formatEther } from 'viem'
import { type CartLineNow, useCartLines, useCartPurchase } from '@/lib/cart/purchase'
import { useCartStore } from '@/lib/cart/store'
import { nftPath } from '@/components/nft/nft-card'
import type { CartRecorded } from '@/lib/offers/api'

function LineRow({ line, onRemove, onNavigate }: { line: CartLineNow; onRemove: () => void; onNavigate: () => void }) {
  const { t } = useTranslation()
  const { item, unavailable } = line
  const title = line.nft?.title || item.title
  return (
    <Flex gap="3" align="center" py="2" data-testid="cart-item" data-nft={item.nftId} data-unavailable={unavailable ?? undefined} opacity={unavailable ? 0.7 : 1}>
      <NftThumb file={line.nft?.file ?? item.file} title={title} />
      <Stack gap="0.5" flex="1" minW="0">
        <Link asChild fontWeight="semibold" fontSize="sm" onClick={onNavigate}>
          <RouterLink to={nftPath({ _id: item.nftId, formOfSale: line.nft?.formOfSale ?? 'FIXEDPRICE' })}>
            <Text as="span" truncate>
              {title}
            </Text>
          </RouterLink>
        </Link>
        {unavailable ? (
          <Badge colorPalette={unavailable === 'mine' ? 'green' : 'red'} variant="subtle" w="fit-content" data-testid="cart-item-unavailable">
            {t(`cart.unavailable.${unavailable}`)}
          </Badge>
        ) : line.repriced ? (
          <Text fontSize="xs" color="fg.warning" data-testid="cart-item-repriced">
            {t('cart.repriced')}
          </Text>
        ) : null}
      </Stack>
      {!unavailable && <Price value={line.price} fontWeight="bold" fontSize="sm" />}
      <IconButton aria-label={t('cart.removeItem', { title })} size="xs" variant="ghost" onClick={onRemove} data-testid="cart-item-remove">
        <LuTrash2 />
      </IconButton>
    </Flex>
  )
}

/** What the last purchase did: each bought NFT with its owner now, and what the contract skipped. */
function PurchaseResult({ result, onNavigate }: { result: CartRecorded; onNavigate: () => void }) {
  const { t } = useTranslation()
  return (
    <Stack gap="3" p="3" borderWidth="1px" borderRadius="lg" bg="bg.muted" data-testid="cart-result">
      {result.bought.length > 0 && (
        <Stack gap="1.5">
          <Text fontWeight="semibold" fontSize="sm">
            {t('cart.boughtTitle', { count: result.bought.length })}
          </Text>
          {result.bought.map((line) => (
            <Flex key={line.nftId} gap="2" align="center" data-testid="cart-bought" data-nft={line.nftId}>
              <NftThumb file={line.nftData?.file} title={line.nftData?.title ?? line.nftId} size="8" />
              <Stack gap="0" flex="1" minW="0">
                <Link asChild fontSize="sm" onClick={onNavigate}>
                  <RouterLink to={`/explore/${line.nftId}`}>
                    <Text as="span" truncate>
                      {line.nftData?.title || line.nftId}
                    </Text>
                  </RouterLink>
                </Link>
                <Text fontSize="xs" color="fg.muted" truncate data-testid="cart-bought-owner">
                  {t('cart.ownerNow', { name: line.nftData?.currentOwner?.username || line.nftData?.currentOwner?.ownerAddress || '' })}
                </Text>
              </Stack>
              <Price value={line.price} fontSize="sm" />
            </Flex>
          ))}
        </Stack>
      )}
      {result.skipped.length > 0 && (
        <Stack gap="1.5">
          <Text fontWeight="semibold" fontSize="sm" color="fg.warning">
            {t('cart.skippedTitle', { count: result.skipped.length })}
          </Text>
          {result.skipped.map((line) => (
            <Stack key={line.nftId} gap="0" data-testid="cart-skipped" data-nft={line.nftId}>
              <Text fontSize="sm" truncate>
                {line.nftData?.title || line.nftId}
              </Text>
              <Text fontSize="xs" color="fg.muted">
                {Number(line.price) > 0 ? t('cart.skippedRepriced') : t('cart.skippedSold')}
              </Text>
            </Stack>
          ))}
          {Number(result.refunded) > 0 && (
            <HStack fontSize="xs" color="fg.muted" gap="1">
              <Text>{t('cart.refunded')}</Text>
              <Price value={result.refunded} fontSize="xs" />
            </HStack>
          )}
        </Stack>
      )}
    </Stack>
  )
}

/**
 * The cart drawer: the items as they are now (sold or burned ones marked unavailable, a changed
 * price noted), the total of what can be bought, and one transaction buying them all.
 */
export function CartDrawer() {
  const { t } = useTranslation()
  const open = useCartStore((s) => s.open)
  const setOpen = useCartStore((s) => s.setOpen)
  const items = useCartStore((s) => s.items)
  const remove = useCartStore((s) => s.remove)
  const clear = useCartStore((s) => s.clear)
  const { lines, available, totalWei, loading, refresh } = useCartLines(items, open)
  const purchase = useCartPurchase()
  const [buying, setBuying] = useState(false)
  const [result, setResult] = useState<CartRecorded | null>(null)
  const close = () => setOpen(false)

  const buy = async () => {
    setBuying(true)
    try {
      const recorded = await purchase(available)
      if (recorded) setResult(recorded)
    } finally {
      setBuying(false)
      void refresh()
    }
  }

  return (
    <Drawer.Root
      open={open}
      onOpenChange={(e) => {
        setOpen(e.open)
        if (!e.open) setResult(null)
      }}
      placement="end"
      size="sm"
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="cart-drawer">
            <Drawer.Header>
              <Drawer.Title>{t('cart.title', { count: items.length })}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="4">
                {result && <PurchaseResult result={result} onNavigate={close} />}
                {items.length === 0 ? (
                  !result && (
                    <Text color="fg.muted" textAlign="center" py="10" data-testid="cart-empty">
                      {t('cart.empty')}
                    </Text>
                  )
                ) : (
                  <Stack gap="0" separator={<Separator />}>
                    {lines.map((line) => (
                      <LineRow key={line.item.nftId} line={line} onRemove={() => remove(line.item.nftId)} onNavigate={close} />
                    ))}
                  </Stack>
                )}
                {loading && (
                  <Box textAlign="center">
                    <Spinner size="sm" color="brand.solid" />
                  </Box>
                )}
              </Stack>
            </Drawer.Body>
            {items.length > 0 && (
              <Drawer.Footer flexDirection="column" alignItems="stretch" gap="3" borderTopWidth="1px">
                <Flex justify="space-between" align="baseline" gap="3">
                  <Text color="fg.muted">{t('cart.total', { count: available.length })}</Text>
                  <Price value={formatEther(totalWei)} fontWeight="bold" fontSize="lg" data-testid="cart-total" />
                </Flex>
                <HStack gap="2">
                  <Button variant="ghost" onClick={clear} data-testid="cart-clear">
                    {t('cart.clear')}
                  </Button>
                  <Button colorPalette="brand" flex="1" disabled={available.length === 0 || loading} loading={buying} onClick={() => void buy()} data-testid="cart-buy">
                    {t('cart.buy', { count: available.length })}
                  </Button>
                </HStack>
              </Drawer.Footer>
            )}
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  )
}
