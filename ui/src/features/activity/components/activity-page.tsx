import { Heading, Stack, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { PageContainer } from '@/components/page-container'
import { ActivityList } from './activity-list'

/** /activity: the whole market's activity, newest first, filtered by kind. */
export function ActivityPage() {
  const { t } = useTranslation()
  useEffect(() => {
    document.title = `${t('activity.title')} | ${t('app.name')}`
  }, [t])
  return (
    <PageContainer>
      <Stack gap="6">
        <Stack gap="1">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
            {t('activity.title')}
          </Heading>
          <Text color="fg.muted">{t('activity.subtitle')}</Text>
        </Stack>
        <ActivityList />
      </Stack>
    </PageContainer>
  )
}
