import { Heading, Stack, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { PageContainer } from '@/components/page-container'

/** Terms and privacy were last updated on 24 May 2021. */
export const POLICY_LAST_UPDATED = new Date(Date.UTC(2021, 4, 24))

type Section = { title: string; paragraphs: string[] }

/** A static policy text: `terms` or `privacy` in the translation files. */
export function PolicyPage({ kind }: { kind: 'terms' | 'privacy' }) {
  const { t, i18n } = useTranslation()
  const sections = t(`${kind}.sections`, { returnObjects: true }) as Section[]
  const locale = i18n.language === 'ge' ? 'de' : i18n.language
  const date = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(POLICY_LAST_UPDATED)
  useEffect(() => {
    document.title = `${t(`${kind}.title`)} | ${t('app.name')}`
  }, [kind, t])
  return (
    <PageContainer maxW="4xl">
      <Stack gap="8" bg="bg.panel" borderWidth="1px" borderRadius="2xl" p={{ base: '6', md: '12' }} boxShadow="card">
        <Stack gap="2">
          <Heading as="h1" size="3xl" letterSpacing="tight">
            {t(`${kind}.title`)}
          </Heading>
          <Text color="fg.muted" data-testid="last-updated">
            {t('static.lastUpdated', { date })}
          </Text>
        </Stack>
        <Text fontSize="lg" color="fg.muted">
          {t(`${kind}.intro`)}
        </Text>
        {Array.isArray(sections)
          ? sections.map((section, index) => (
              <Stack key={section.title} gap="3">
                <Heading as="h2" size="lg">
                  {`${index + 1}. ${section.title}`}
                </Heading>
                {section.paragraphs.map((p) => (
                  <Text key={p} lineHeight="tall" color="fg">
                    {p}
                  </Text>
                ))}
              </Stack>
            ))
          : null}
      </Stack>
    </PageContainer>
  )
}
