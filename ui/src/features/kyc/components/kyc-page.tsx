import { Button, Flex, HStack, Heading, Icon, Stack, Switch, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuClock, LuDownload, LuShieldCheck } from 'react-icons/lu'
import { Link, useNavigate } from 'react-router'
import { SettingsSection } from '@/components/settings-section'
import { GradientButton } from '@/components/ui/gradient-button'

/**
 * Informational KYC pages (no real KYC logic). On desktop a demo toggle switches between them:
 * pending with the toggle on goes to approved; approved with the toggle off goes to pending.
 */
export function KycPage({ status }: { status: 'pending' | 'approved' }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const approved = status === 'approved'
  return (
    <SettingsSection title={t('kyc.title')}>
      <HStack hideBelow="md" justify="flex-end">
        <Switch.Root
          checked={approved}
          onCheckedChange={(e) => navigate(e.checked ? '/profile/kyc-approved' : '/profile/kyc-pending')}
          colorPalette="brand"
          data-testid="kyc-demo-toggle"
        >
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label>{t('kyc.demoToggle')}</Switch.Label>
        </Switch.Root>
      </HStack>
      <Stack align="center" textAlign="center" gap="5" py="6">
        <Flex w="20" h="20" borderRadius="full" align="center" justify="center" bg={approved ? 'green.subtle' : 'orange.subtle'} color={approved ? 'green.fg' : 'orange.fg'}>
          <Icon as={approved ? LuShieldCheck : LuClock} boxSize="10" />
        </Flex>
        <Heading as="h3" size="xl">
          {approved ? t('kyc.approvedTitle') : t('kyc.pendingTitle')}
        </Heading>
        <Text color="fg.muted" maxW="lg">
          {approved ? t('kyc.approvedText') : t('kyc.pendingText')}
        </Text>
        <HStack gap="3" wrap="wrap" justify="center">
          <Button variant="outline" borderRadius="full" onClick={() => window.print()}>
            <LuDownload /> {t('kyc.download')}
          </Button>
          <GradientButton asChild>
            <Link to="/explore?type=all">{t('kyc.explore')}</Link>
          </GradientButton>
        </HStack>
      </Stack>
    </SettingsSection>
  )
}
