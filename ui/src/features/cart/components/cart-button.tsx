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
        // The count stands over the icon's corner, ringed in the bar's colour; the button's label already says it.
        <Box
          as="span"
          aria-hidden="true"
          position="absolute"
          top="-1"
          insetEnd="-1"
          minW="5"
          h="5"
          px="1"
          display="inline-flex"
          alignItems="center"
          justifyContent="center"
          borderRadius="full"
          borderWidth="2px"
          borderColor="bg"
          bg="brand.solid"
          color="brand.contrast"
          fontSize="11px"
          fontWeight="bold"
          lineHeight="1"
          fontVariantNumeric="tabular-nums"
          pointerEvents="none"
          data-testid="cart-count"
        >
          {formatCount(count, i18n.resolvedLanguage)}
        </Box>
      )}
    </IconButton>
  )
}
