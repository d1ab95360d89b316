import { HStack, RadioCard, SimpleGrid, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { SettingsSection } from '@/components/settings-section'
import { CHOOSER_LANGUAGES, setLanguage } from '@/lib/i18n'

/** Language names are written in their own language. */
const NATIVE_NAMES: Record<string, string> = { en: 'English', pt: 'Português', fr: 'Français', ge: 'Deutsch' }

/** English, Portuguese, French, German; stored in local storage `lang` and applied at once. */
export function LanguagePage() {
  const { t, i18n } = useTranslation()
  const current = i18n.resolvedLanguage ?? i18n.language
  return (
    <SettingsSection title={t('settings.menu.language')} description={t('settings.language.description')}>
      <RadioCard.Root value={current} onValueChange={(e) => e.value && void setLanguage(e.value)} colorPalette="brand" variant="surface">
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
          {CHOOSER_LANGUAGES.map((code) => (
            <RadioCard.Item key={code} value={code} data-testid={`language-${code}`}>
              <RadioCard.ItemHiddenInput />
              <RadioCard.ItemControl>
                <RadioCard.ItemContent>
                  <RadioCard.ItemText>{t(`settings.language.names.${code}`)}</RadioCard.ItemText>
                  <HStack>
                    <Text fontSize="sm" color="fg.muted">
                      {NATIVE_NAMES[code]}
                    </Text>
                  </HStack>
                </RadioCard.ItemContent>
                <RadioCard.ItemIndicator />
              </RadioCard.ItemControl>
            </RadioCard.Item>
          ))}
        </SimpleGrid>
      </RadioCard.Root>
    </SettingsSection>
  )
}
