import { Heading, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'

/** A settings page body: title (hidden on narrow screens, where the shell shows it), description, content. */
export function SettingsSection({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="6" bg="bg.panel" borderWidth="1px" borderRadius="2xl" p={{ base: '5', md: '8' }} boxShadow="card">
      <Stack gap="1" hideBelow="md">
        <Heading as="h2" size="xl">
          {title}
        </Heading>
        {description ? <Text color="fg.muted">{description}</Text> : null}
      </Stack>
      {description ? (
        <Text color="fg.muted" hideFrom="md">
          {description}
        </Text>
      ) : null}
      {children}
    </Stack>
  )
}
