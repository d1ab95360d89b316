import { IconButton, Spinner } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuBadgeCheck, LuBadgeX, LuShieldQuestion } from 'react-icons/lu'
import { notify } from '@/components/ui/toaster'
import { Tooltip } from '@/components/ui/tooltip'
import type { MetadataField, VerificationState } from '@/lib/nft/metadata'
import { DETAIL_MESSAGE_DURATION } from '@/lib/nft/trade'

/**
 * The metadata verification icon: a spinner while checking, a check when verified, a cross when
 * the metadata could not be fetched, a question mark when unverified (with the field that
 * differs). A click checks again and says the outcome.
 */
export function VerificationIcon({
  state,
  mismatch,
  verify,
}: {
  state: VerificationState
  mismatch: MetadataField | null
  verify: () => Promise<{ state: VerificationState; mismatch: MetadataField | null }>
}) {
  const { t } = useTranslation()
  const label =
    state === 'checking'
      ? t('nft.verify.checking')
      : state === 'verified'
        ? t('nft.verify.verified')
        : state === 'failed'
          ? t('nft.verify.failed')
          : mismatch
            ? t('nft.verify.mismatch', { field: t(`nft.verify.fields.${mismatch}`) })
            : t('nft.verify.unverified')
  const again = async () => {
    const result = await verify()
    // Snackbars on the detail page stay 600000 ms.
    if (result.state === 'verified') notify('success', t('nft.verify.verified'), DETAIL_MESSAGE_DURATION)
    else if (result.state === 'failed') notify('error', t('nft.verify.failed'), DETAIL_MESSAGE_DURATION)
    else if (result.mismatch) notify('error', t('nft.verify.mismatch', { field: t(`nft.verify.fields.${result.mismatch}`) }), DETAIL_MESSAGE_DURATION)
  }
  return (
    <Tooltip content={label}>
      <IconButton
        aria-label={label}
        variant="ghost"
        size="sm"
        borderRadius="full"
        data-testid="verification-icon"
        data-state={state}
        disabled={state === 'checking'}
        onClick={() => void again()}
        color={state === 'verified' ? 'green.500' : state === 'failed' ? 'red.500' : 'orange.400'}
      >
        {state === 'checking' ? <Spinner size="sm" /> : state === 'verified' ? <LuBadgeCheck /> : state === 'failed' ? <LuBadgeX /> : <LuShieldQuestion />}
      </IconButton>
    </Tooltip>
  )
}
