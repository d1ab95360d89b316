import { Button, CloseButton, Dialog, Field, Flex, HStack, Input, NativeSelect, Portal, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { parseEther } from 'viem'
import { CURRENCY, formatDateTime, formatMatic } from '@/lib/format'
import type { Offer } from '@/lib/offers/api'
import type { TranslationKey } from '@/lib/i18n'

/** The expiry choices, in days; 'custom' takes a date and time. */
export const EXPIRY_DAYS = [1, 3, 7, 30] as const
export const DEFAULT_EXPIRY_DAYS = 7
/** The contract's MAX_OFFER_DURATION: an offer can stay acceptable at most 180 days. */
export const MAX_OFFER_DAYS = 180
export type ExpiryChoice = `${(typeof EXPIRY_DAYS)[number]}` | 'custom'

const DECIMAL = /^\d*\.?\d+$|^\d+\.$/

/** Validates an offer amount in MATIC: a translation key, or null. */
export function offerAmountError(amount: string): TranslationKey | null {
  const value = amount.trim()
  if (!value) return 'offers.amountRequired'
  if (!DECIMAL.test(value)) return 'offers.amountNumeric'
  try {
    if (parseEther(value) <= 0n) return 'offers.amountPositive'
  } catch {
    return 'offers.amountNumeric'
  }
  return null
}

/** When an offer made now with `choice` expires (`custom`: the `datetime-local` value), or null when invalid or not ahead. */
export function expiryOf(choice: ExpiryChoice, custom: string, now = Date.now()): Date | null {
  if (choice !== 'custom') return new Date(now + Number(choice) * 86_400_000)
  const at = new Date(custom)
  return Number.isNaN(at.getTime()) || at.getTime() <= now ? null : at
}

/** Why an offer cannot expire at `expiresAt` (null: not in the future), as a translation key; null when it can. */
export function expiryError(expiresAt: Date | null, now = Date.now()): TranslationKey | null {
  if (!expiresAt) return 'offers.expiryPast'
  // The contract counts from the block's time, a little after now: a minute of margin.
  return expiresAt.getTime() > now + MAX_OFFER_DAYS * 86_400_000 - 60_000 ? 'offers.expiryTooFar' : null
}

/** A Date as a `datetime-local` value (local time, to the minute). */
function localValue(date: Date) {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/**
 * "Make offer": the amount in MATIC and until when the owner may accept it. With `current` (the
 * viewer's live offer), the new offer replaces it and says that the old amount comes back.
 */
export function MakeOfferDialog({
  open,
  title,
  current,
  onSubmit,
  onClose,
}: {
  open: boolean
  /** The NFT's title. */
  title: string
  current?: Offer | null
  onSubmit: (amount: string, expiresAt: Date) => void
  onClose: () => void
}) {
  const { t, i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  const [amount, setAmount] = useState('')
  const [choice, setChoice] = useState<ExpiryChoice>(`${DEFAULT_EXPIRY_DAYS}`)
  const [custom, setCustom] = useState(() => localValue(new Date(Date.now() + DEFAULT_EXPIRY_DAYS * 86_400_000)))
  const [errors, setErrors] = useState<{ amount?: TranslationKey | null; expiry?: TranslationKey | null }>({})
  const expiresAt = expiryOf(choice, custom)

  const submit = () => {
    const amountError = offerAmountError(amount)
    const expiry = expiryError(expiresAt)
    setErrors({ amount: amountError, expiry })
    if (amountError || expiry || !expiresAt) return
    onClose()
    onSubmit(amount.trim(), expiresAt)
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => (e.open ? undefined : onClose())} placement="center" size="md" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="make-offer-dialog">
            <Dialog.Header>
              <Dialog.Title>{current ? t('offers.changeTitle') : t('offers.makeTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Text color="fg.muted" lineClamp={2} wordBreak="break-word">
                  {t('offers.makeIntro', { title })}
                </Text>
                {current && (
                  <Text fontSize="sm" bg="bg.muted" borderRadius="md" px="3" py="2" data-testid="offer-replaces">
                    {t('offers.replaces', { amount: formatMatic(current.amount, lng, { exact: true }) })}
                  </Text>
                )}
                <Field.Root invalid={!!errors.amount} required>
                  <Field.Label>
                    {t('offers.amount')}
                    <Field.RequiredIndicator />
                  </Field.Label>
                  <HStack w="100%" align="stretch">
                    <Input
                      type="number"
                      inputMode="decimal"
                      min={0}
                      step="any"
                      placeholder="0.01"
                      value={amount}
                      autoFocus
                      onChange={(e) => {
                        setAmount(e.target.value)
                        setErrors((v) => ({ ...v, amount: null }))
                      }}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter') submit()
                      }}
                      aria-label={t('offers.amount')}
                      data-testid="offer-amount"
                    />
                    <Flex align="center" px="3" bg="bg.muted" borderRadius="md" fontWeight="semibold" fontSize="sm">
                      {CURRENCY}
                    </Flex>
                  </HStack>
                  <Field.HelperText>{t('offers.escrowHint')}</Field.HelperText>
                  {errors.amount && <Field.ErrorText>{t(errors.amount)}</Field.ErrorText>}
                </Field.Root>
                <Field.Root invalid={!!errors.expiry}>
                  <Field.Label>{t('offers.expiry')}</Field.Label>
                  <NativeSelect.Root>
                    <NativeSelect.Field
                      value={choice}
                      onChange={(e) => {
                        setChoice(e.target.value as ExpiryChoice)
                        setErrors((v) => ({ ...v, expiry: null }))
                      }}
                      aria-label={t('offers.expiry')}
                      data-testid="offer-expiry"
                    >
                      {EXPIRY_DAYS.map((days) => (
                        <option key={days} value={`${days}`}>
                          {t('offers.days', { count: days })}
                        </option>
                      ))}
                      <option value="custom">{t('offers.customExpiry')}</option>
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                  {choice === 'custom' && (
                    <Input
                      mt="2"
                      type="datetime-local"
                      value={custom}
                      min={localValue(new Date())}
                      max={localValue(new Date(Date.now() + (MAX_OFFER_DAYS - 1) * 86_400_000))}
                      onChange={(e) => {
                        setCustom(e.target.value)
                        setErrors((v) => ({ ...v, expiry: null }))
                      }}
                      aria-label={t('offers.customExpiry')}
                      data-testid="offer-expiry-custom"
                    />
                  )}
                  {expiresAt && !errors.expiry && (
                    <Field.HelperText data-testid="offer-expires-at">{t('offers.expiresOn', { date: formatDateTime(expiresAt, lng) })}</Field.HelperText>
                  )}
                  {errors.expiry && <Field.ErrorText>{t(errors.expiry)}</Field.ErrorText>}
                </Field.Root>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button colorPalette="brand" onClick={submit} data-testid="offer-submit">
                {current ? t('offers.replace') : t('offers.submit')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
