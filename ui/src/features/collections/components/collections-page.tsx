import { Heading, Stack, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { ManagedCollectionGrid } from '@/components/collection/managed-collection-grid'
import { PageContainer } from '@/components/page-container'

/** /collections: every collection as a card, newest first, infinite. */
export function CollectionsPage() {
  const { t } = useTranslation()
  useEffect(() => {
    document.title = `${t('collections.title')} | ${t('app.name')}`
  }, [t])
  return (
    <PageContainer>
      <Stack gap="2" mb="8">
        <Heading as="h1" size="3xl">
          {t('collections.title')}
        </Heading>
        <Text color="fg.muted">{t('collections.subtitle')}</Text>
      </Stack>
      <ManagedCollectionGrid detailPath={(id) => `/collections/collection/${encodeURIComponent(id)}`} emptyText={t('collections.empty')} />
    </PageContainer>
  )
}
