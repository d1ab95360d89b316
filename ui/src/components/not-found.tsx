import { Button, Heading, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ACCENT_GRADIENT } from '@/lib/theme'
import { PageContainer } from './page-container'

export function NotFoundPage() {
  const { t } = useTranslation()
  return (
    <PageContainer>
      <Stack align="center" textAlign="center" gap="5" py="16" data-testid="not-found">
        <Heading as="h1" fontSize={{ base: '7xl', md: '9xl' }} lineHeight="1" bgImage={ACCENT_GRADIENT} bgClip="text" color="transparent">
          404
        </Heading>
        <Heading as="h2" size="xl">
          {t('notFound.title')}
        </Heading>
        <Text color="fg.muted" maxW="md">
          {t('notFound.text')}
        </Text>
        <Button asChild variant="outline" borderRadius="full">
          <Link to="/">{t('notFound.home')}</Link>
        </Button>
      </Stack>
    </PageContainer>
  )
}
