import { Box, Flex, SimpleGrid, Stack, Text, chakra } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuCheck } from 'react-icons/lu'
import { SettingsSection } from '@/components/settings-section'
import { type ColorMode, useColorMode } from '@/components/ui/color-mode'
import { ACCENT_GRADIENT } from '@/lib/theme'

const PALETTES: Record<ColorMode, { bg: string; panel: string; line: string; text: string }> = {
  dark: { bg: '#090818', panel: '#14132c', line: '#25224a', text: '#eeecfb' },
  light: { bg: '#f6f5fb', panel: '#ffffff', line: '#e3e0f0', text: '#15132b' },
}

/** A small drawing of the app in one theme: top bar, hero text and two cards. */
function ThemePreview({ mode }: { mode: ColorMode }) {
  const p = PALETTES[mode]
  return (
    <Box bg={p.bg} borderRadius="lg" p="3" h="150px" overflow="hidden" borderWidth="1px" borderColor={p.line} aria-hidden="true">
      <Flex justify="space-between" align="center" mb="3">
        <Box w="10" h="2" borderRadius="full" bgImage={ACCENT_GRADIENT} />
        <Flex gap="1.5">
          {[0, 1, 2].map((i) => (
            <Box key={i} w="6" h="1.5" borderRadius="full" bg={p.line} />
          ))}
        </Flex>
      </Flex>
      <Flex gap="3">
        <Stack flex="1" gap="1.5" pt="2">
          <Box h="2.5" w="90%" borderRadius="full" bg={p.text} opacity="0.85" />
          <Box h="2.5" w="70%" borderRadius="full" bg={p.text} opacity="0.85" />
          <Box h="1.5" w="80%" borderRadius="full" bg={p.line} mt="1" />
          <Box h="4" w="45%" borderRadius="full" bgImage={ACCENT_GRADIENT} mt="2" />
        </Stack>
        <Flex gap="2" flex="1">
          {[0, 1].map((i) => (
            <Box key={i} flex="1" bg={p.panel} borderRadius="md" p="1.5" borderWidth="1px" borderColor={p.line} transform={i === 0 ? 'rotate(-4deg)' : 'rotate(3deg)'}>
              <Box h="14" borderRadius="sm" bgImage={i === 0 ? 'linear-gradient(135deg,#7c3aed,#22d3ee)' : 'linear-gradient(135deg,#ec4899,#f59e0b)'} />
              <Box h="1.5" w="70%" mt="1.5" borderRadius="full" bg={p.line} />
            </Box>
          ))}
        </Flex>
      </Flex>
    </Box>
  )
}

/** Dark or light, chosen on preview pictures; stored locally (`theme`). */
export function ThemePage() {
  const { t } = useTranslation()
  const { colorMode, setColorMode } = useColorMode()
  return (
    <SettingsSection title={t('settings.menu.theme')} description={t('settings.theme.description')}>
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
        {(['dark', 'light'] as const).map((mode) => {
          const selected = colorMode === mode
          return (
            <chakra.button
              key={mode}
              type="button"
              onClick={() => setColorMode(mode)}
              aria-pressed={selected}
              data-testid={`theme-${mode}`}
              textAlign="left"
              borderWidth="2px"
              borderColor={selected ? 'brand.solid' : 'border'}
              borderRadius="xl"
              p="3"
              bg="bg.subtle"
              cursor="pointer"
              _hover={{ borderColor: selected ? 'brand.solid' : 'brand.emphasized' }}
              transition="border-color 0.15s"
            >
              <ThemePreview mode={mode} />
              <Flex justify="space-between" align="center" mt="3">
                <Text fontWeight="semibold">{t(`settings.theme.${mode}`)}</Text>
                {selected ? (
                  <Flex w="6" h="6" borderRadius="full" bg="brand.solid" color="white" align="center" justify="center">
                    <LuCheck size={14} />
                  </Flex>
                ) : null}
              </Flex>
            </chakra.button>
          )
        })}
      </SimpleGrid>
    </SettingsSection>
  )
}
