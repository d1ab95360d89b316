import { Flex, Grid, Heading, Icon, Input, Stack, Text, Textarea } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { LuMail, LuMessageCircle } from 'react-icons/lu'
import { PageContainer } from '@/components/page-container'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { GradientButton } from '@/components/ui/gradient-button'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSubmitForm } from '@/lib/use-submit-form'
import { type ContactMessage, sendContactMessage } from '../api/contact-us'
import { validateContact } from '../validation'
import { TEXT_LIMITS } from '@/lib/text-limits'

export function ContactPage() {
  const { t } = useTranslation()
  const form = useSubmitForm<ContactMessage>({ name: '', email: '', subject: '', message: '' }, validateContact)
  useEffect(() => {
    document.title = `${t('contact.title')} | ${t('app.name')}`
  }, [t])

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { message } = await sendContactMessage({ ...values, name: values.name.trim(), email: values.email.trim() })
      notify('success', message || t('contact.sent'))
      form.reset()
    } catch (error) {
      notify('error', errorMessage(error, t('common.genericError')))
    }
  })

  return (
    <PageContainer maxW="6xl">
      <Grid templateColumns={{ base: '1fr', md: '2fr 3fr' }} gap="10" alignItems="start">
        <Stack gap="5">
          <Heading as="h1" size="3xl" letterSpacing="tight">
            {t('contact.title')}
          </Heading>
          <Text color="fg.muted" fontSize="lg">
            {t('contact.subtitle')}
          </Text>
          {([
            { icon: LuMessageCircle, key: 'contact.support' },
            { icon: LuMail, key: 'contact.response' },
          ] as const).map((item) => (
            <Flex key={item.key} gap="3" align="center">
              <Flex w="10" h="10" borderRadius="lg" bg="brand.subtle" color="brand.fg" align="center" justify="center">
                <Icon as={item.icon} />
              </Flex>
              <Text color="fg.muted">{t(item.key)}</Text>
            </Flex>
          ))}
        </Stack>
        <Form onSubmit={onSubmit} gap="4" bg="bg.panel" borderWidth="1px" borderRadius="2xl" p={{ base: '5', md: '8' }} boxShadow="card">
          <Grid templateColumns={{ base: '1fr', sm: '1fr 1fr' }} gap="4">
            <FormField label={t('contact.name')} error={form.errors.name && t(form.errors.name)}>
              <Input autoComplete="name" maxLength={TEXT_LIMITS.contactName} {...form.field('name')} />
            </FormField>
            <FormField label={t('contact.email')} error={form.errors.email && t(form.errors.email)}>
              <Input type="email" autoComplete="email" maxLength={TEXT_LIMITS.email} {...form.field('email')} />
            </FormField>
          </Grid>
          <FormField label={t('contact.subject')} error={form.errors.subject && t(form.errors.subject)}>
            <Input maxLength={TEXT_LIMITS.contactSubject} {...form.field('subject')} />
          </FormField>
          <FormField label={t('contact.message')} error={form.errors.message && t(form.errors.message)}>
            <Textarea rows={6} maxLength={TEXT_LIMITS.contactMessage} {...form.field('message')} />
          </FormField>
          <GradientButton type="submit" alignSelf="flex-start" loading={form.submitting} loadingText={t('contact.sending')}>
            {t('contact.submit')}
          </GradientButton>
        </Form>
      </Grid>
    </PageContainer>
  )
}
