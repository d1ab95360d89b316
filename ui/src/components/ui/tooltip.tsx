import { Portal, Tooltip as ChakraTooltip } from '@chakra-ui/react'
import type { ReactNode } from 'react'

export function Tooltip({ content, children, disabled }: { content: ReactNode; children: ReactNode; disabled?: boolean }) {
  if (disabled) return <>{children}</>
  return (
    <ChakraTooltip.Root openDelay={200} closeDelay={100}>
      <ChakraTooltip.Trigger asChild>{children}</ChakraTooltip.Trigger>
      <Portal>
        <ChakraTooltip.Positioner>
          <ChakraTooltip.Content>{content}</ChakraTooltip.Content>
        </ChakraTooltip.Positioner>
      </Portal>
    </ChakraTooltip.Root>
  )
}
