import { Box, IconButton } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuShoppingCart } from 'react-icons/lu'
import { formatCount } from '@/lib/format'
import { useCartStore } from '@/lib/cart/store'

/** The top bar's cart: its count on the icon; opens the cart drawer. */
export function CartButton() {
  const { t, i18n } = useTranslation()
  const count = useCartStore((s) => s.items.length)
  const setOpen = useCartStore((s) => s.setOpen)
  return (
    // Smaller on phones, where it shares the bar with the logo, Login and the menu button.
    <IconButton variant="ghost" size={{ base: 'sm', md: 'md' }} borderRadius="full" position="relative" aria-label={t('cart.open', { count })} onClick={() => setOpen(true)} data-testid="cart-button">
      <LuShoppingCart />
      {count > 0 && (
        <Box
          as="span"
          position="absolute"
          top="0.5"
          right="0.5"
          minW="4.5"
          h="4.5"
          px="1"
          borderRadius="full"
          bg="brand.solid"
          color="white"
          fontSize="2xs"
          fontWeight="bold"
          lineHeight="4.5"
          textAlign="center"
          data-testid="cart-count"
        >
          {formatCount(count, i18n.resolvedLanguage)}
        </Box>
      )}
    </IconButton>
  )
}
