import { Heading, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { AuthLayout } from '@/components/layout/auth-layout'

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <AuthLayout>
      <Stack gap="8" bg="bg.panel" borderWidth="1px" borderRadius="2xl" p={{ base: '6', md: '8' }} boxShadow="card">
        <Stack gap="2">
          <Heading as="h1" size="2xl" letterSpacing="tight">
            {title}
          </Heading>
          {subtitle ? <Text color="fg.muted">{subtitle}</Text> : null}
        </Stack>
        {children}
      </Stack>
    </AuthLayout>
  )
}
