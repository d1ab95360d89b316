import { Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'

/** A figure with its label above it (floor, volume, owners...). */
export function StatFigure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap="0.5" minW="0" data-testid={testId}>
      <Text fontSize="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide" lineClamp={1}>
        {label}
      </Text>
      <Text as="div" fontWeight="bold" fontSize={{ base: 'md', md: 'lg' }} lineClamp={1}>
        {children}
      </Text>
    </Stack>
  )
}
