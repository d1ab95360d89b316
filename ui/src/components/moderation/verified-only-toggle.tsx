import { Button } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuBadgeCheck } from 'react-icons/lu'

/** "Verified only": a pressed / not pressed button over a list (explore: verified creators' NFTs; the collections grid: verified collections). */
export function VerifiedOnlyToggle({ value, onChange }: { value: boolean; onChange: (on: boolean) => void }) {
  const { t } = useTranslation()
  return (
    <Button
      variant={value ? 'subtle' : 'outline'}
      colorPalette={value ? 'blue' : 'gray'}
      borderRadius="full"
      aria-pressed={value}
      onClick={() => onChange(!value)}
      flexShrink={0}
      data-testid="verified-only"
    >
      <LuBadgeCheck aria-hidden /> {t('moderation.verifiedOnly')}
    </Button>
  )
}
