import { Button, IconButton, type ButtonProps } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuShoppingCart, LuCheck } from 'react-icons/lu'
import { notify } from '@/components/ui/toaster'
import { MAX_CART_ITEMS, useCartStore, useInCart } from '@/lib/cart/store'
import { useOwnsNft } from '@/lib/cart/ownership'
import type { Nft } from '@/lib/nft/types'

/** Whether a card or the detail page offers "Add to cart": a fixed-price NFT someone else owns. */
export function canAddToCart(nft: Pick<Nft, 'formOfSale'>, owns: boolean) {
  return nft.formOfSale === 'FIXEDPRICE' && !owns
}

/**
 * "Add to cart" (again: "In cart", which takes it out). `overlay`: the round icon on a card's
 * image; otherwise a button with its label. Nothing for one's own NFTs or what is not at a fixed price.
 */
export function AddToCartButton({ nft, overlay = false, size }: { nft: Nft; overlay?: boolean; size?: ButtonProps['size'] }) {
  const { t } = useTranslation()
  const owns = useOwnsNft()
  const inCart = useInCart(nft._id)
  const add = useCartStore((s) => s.add)
  const remove = useCartStore((s) => s.remove)
  if (!canAddToCart(nft, owns(nft))) return null
  const toggle = () => {
    if (inCart) remove(nft._id)
    else if (!add(nft)) notify('error', t('cart.full', { max: MAX_CART_ITEMS }))
  }
  const label = inCart ? t('cart.remove') : t('cart.add')
  if (overlay) {
    return (
      <IconButton
        aria-label={label}
        title={label}
        aria-pressed={inCart}
        size="sm"
        position="absolute"
        top="2"
        right="2"
        borderRadius="full"
        bg={inCart ? 'brand.solid' : 'blackAlpha.600'}
        color="white"
        _hover={{ bg: inCart ? 'brand.emphasized' : 'blackAlpha.800' }}
        onClick={toggle}
        data-testid="card-add-to-cart"
      >
        {inCart ? <LuCheck /> : <LuShoppingCart />}
      </IconButton>
    )
  }
  return (
    <Button variant={inCart ? 'subtle' : 'outline'} size={size} onClick={toggle} aria-pressed={inCart} data-testid="add-to-cart">
      {inCart ? <LuCheck /> : <LuShoppingCart />}
      {inCart ? t('cart.inCart') : t('cart.add')}
    </Button>
  )
}
