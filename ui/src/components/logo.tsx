import { HStack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { ACCENT_GRADIENT } from '@/lib/theme'

export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" style={{ flexShrink: 0 }}>
      <defs>
        <linearGradient id="logo-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7c3aed" />
          <stop offset="1" stopColor="#ec4899" />
        </linearGradient>
      </defs>
      <path d="M32 4l24 14v28L32 60 8 46V18z" fill="url(#logo-gradient)" />
      <path d="M22 42V22l20 20V22" stroke="#fff" strokeWidth="5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

/** The mark and the product name; `compact` hides the name on medium screens, where space is short. */
export function Logo({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation()
  return (
    <HStack gap="2" minW="0">
      <LogoMark />
      <Text
        fontWeight="extrabold"
        fontSize="lg"
        letterSpacing="tight"
        truncate
        minW="0"
        bgImage={ACCENT_GRADIENT}
        bgClip="text"
        color="transparent"
        display={compact ? { base: 'block', md: 'none', lg: 'block' } : 'block'}
      >
        {t('app.name')}
      </Text>
    </HStack>
  )
}
