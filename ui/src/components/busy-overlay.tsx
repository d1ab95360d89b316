import { Box, Center, Spinner, Stack, Text } from '@chakra-ui/react'
import { useBusyStore } from '@/lib/busy-store'

/** Blocks the screen with a message while a long action runs. */
export function BusyOverlay() {
  const message = useBusyStore((s) => s.message)
  if (!message) return null
  return (
    <Box position="fixed" inset="0" zIndex="overlay" bg="blackAlpha.700" backdropFilter="blur(4px)" role="alertdialog" aria-busy="true" aria-label={message}>
      <Center h="100%">
        <Stack align="center" gap="4" bg="bg.panel" px="10" py="8" borderRadius="2xl" boxShadow="card" borderWidth="1px">
          <Spinner size="xl" color="brand.solid" borderWidth="4px" />
          <Text fontWeight="semibold" data-testid="busy-message">
            {message}
          </Text>
        </Stack>
      </Center>
    </Box>
  )
}
