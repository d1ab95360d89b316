import { Button, type ButtonProps } from '@chakra-ui/react'
import { forwardRef } from 'react'
import { ACCENT_GRADIENT } from '@/lib/theme'

/** The primary call to action with the accent gradient. */
export const GradientButton = forwardRef<HTMLButtonElement, ButtonProps>(function GradientButton(props, ref) {
  return (
    <Button
      ref={ref}
      color="white"
      bgImage={ACCENT_GRADIENT}
      bgColor="brand.500"
      fontWeight="semibold"
      borderRadius="full"
      _hover={{ opacity: 0.92, transform: 'translateY(-1px)', boxShadow: '0 8px 24px rgba(124,58,237,0.35)' }}
      _active={{ transform: 'translateY(0)' }}
      transition="all 0.15s ease"
      {...props}
    />
  )
})
