import { Accordion, Heading, Stack, Text, useBreakpointValue } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PageContainer } from '@/components/page-container'
import { truncate } from '@/lib/format'

export const FAQ_COUNT = 7
export const FAQ_MOBILE_QUESTION_MAX = 50

type Faq = { question: string; answer: string }

/** Seven panels; the first is open; one at a time; questions cut at 50 characters on mobile. */
export function FaqPage() {
  const { t } = useTranslation()
  const faqs = (t('faq.items', { returnObjects: true }) as Faq[]).slice(0, FAQ_COUNT)
  const [open, setOpen] = useState<string[]>(['faq-0'])
  const narrow = useBreakpointValue({ base: true, md: false }) ?? false
  return (
    <PageContainer maxW="4xl">
      <Stack gap="8">
        <Stack gap="2" textAlign="center">
          <Heading as="h1" size="3xl" letterSpacing="tight">
            {t('faq.title')}
          </Heading>
          <Text color="fg.muted">{t('faq.subtitle')}</Text>
        </Stack>
        <Accordion.Root value={open} onValueChange={(e) => setOpen(e.value)} collapsible variant="enclosed" bg="bg.panel" borderRadius="2xl" data-testid="faq">
          {faqs.map((faq, index) => (
            <Accordion.Item key={faq.question} value={`faq-${index}`}>
              <Accordion.ItemTrigger py="4" px="5" cursor="pointer">
                <Text flex="1" fontWeight="semibold" textAlign="left" title={faq.question}>
                  {narrow ? truncate(faq.question, FAQ_MOBILE_QUESTION_MAX) : faq.question}
                </Text>
                <Accordion.ItemIndicator />
              </Accordion.ItemTrigger>
              <Accordion.ItemContent>
                <Accordion.ItemBody px="5" pb="5" color="fg.muted" lineHeight="tall">
                  {faq.answer}
                </Accordion.ItemBody>
              </Accordion.ItemContent>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      </Stack>
    </PageContainer>
  )
}
