import { Center, Spinner, Stack, Text } from '@chakra-ui/react'
import { LogoMark } from './logo'

/** Shown for about 2 seconds when the app starts (it also covers loading /api/config). */
export const STARTUP_LOADER_MS = 2000

export function StartupLoader({ label }: { label?: string }) {
  return (
    <Center minH="100vh" bg="bg" data-testid="startup-loader">
      <Stack align="center" gap="6">
        <LogoMark size={72} />
        <Spinner size="lg" color="brand.solid" borderWidth="3px" />
        {label ? <Text color="fg.muted">{label}</Text> : null}
      </Stack>
    </Center>
  )
}
