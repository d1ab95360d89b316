import { Badge, Box, Button, CloseButton, Dialog, Field, HStack, Input, Portal, RadioGroup, Stack, Text } from '@chakra-ui/react'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/nft/confirm-dialog'
import { IconShield, IconShieldOff } from '@/components/moderation/icons'
import { formatDateTime, shortenAddress, unbreakable } from '@/lib/format'
import {
  EVIDENCE_MAX_CHARS,
  HOLD_EVIDENCE_MAX_DAYS,
  HOLD_REVIEW_DAYS,
  evidenceDaysError,
  useContractModerator,
  useHoldActions,
  useHoldState,
} from '@/lib/moderation/holds'
import { useNftDetail } from '@/lib/nft/api'
import type { Nft } from '@/lib/nft/types'

type Term = 'review' | 'evidence'
/** What the evidence option proposes first: a month, well inside the contract's 90 days. */
const DEFAULT_EVIDENCE_DAYS = '30'

/**
 * Asks how long to hold: 7 days while the report is reviewed, or up to 90 days with a police
 * report reference (only its hash goes on chain). A hold in force can only be extended with
 * evidence: without it the contract caps the hold at 7 days from its first start, which the read
 * model does not keep.
 */
export function HoldDialog({ name, renewing, onSubmit, onClose }: { name: string; renewing: boolean; onSubmit: (days: number, evidence: string) => void; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const labelId = useId()
  const [term, setTerm] = useState<Term>(renewing ? 'evidence' : 'review')
  const [days, setDays] = useState(DEFAULT_EVIDENCE_DAYS)
  const [evidence, setEvidence] = useState('')
  const [errors, setErrors] = useState<{ days?: string; evidence?: string }>({})
  const withEvidence = term === 'evidence'
  const chosenDays = withEvidence ? Number(days) : HOLD_REVIEW_DAYS
  // An estimate by the browser's clock; the transaction counts from the chain's.
  const endsAbout = Number.isFinite(chosenDays) && chosenDays > 0 ? formatDateTime(Date.now() + chosenDays * 86_400_000, i18n.resolvedLanguage) : null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const next: typeof errors = {}
    if (withEvidence) {
      if (evidenceDaysError(days)) next.days = t('moderation.hold.daysInvalid', { max: HOLD_EVIDENCE_MAX_DAYS })
      if (!evidence.trim()) next.evidence = t('moderation.hold.evidenceRequired')
    }
    setErrors(next)
    if (next.days || next.evidence) return
    onSubmit(chosenDays, withEvidence ? evidence.trim() : '')
  }

  return (
    <Dialog.Root open onOpenChange={(e) => (e.open ? undefined : onClose())} placement="center" size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="hold-dialog">
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title wordBreak="break-word">{renewing ? t('moderation.hold.extendTitle', { name }) : t('moderation.hold.title', { name })}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="5">
                  <Text color="fg.muted" fontSize="sm">
                    {t('moderation.hold.text')}
                  </Text>
                  <Stack gap="2">
                    <Text fontWeight="medium" id={labelId}>
                      {t('moderation.hold.length')}
                    </Text>
                    <RadioGroup.Root value={term} onValueChange={(e) => setTerm(e.value as Term)} aria-labelledby={labelId} colorPalette="brand">
                      <Stack gap="3">
                        <RadioGroup.Item value="review" alignItems="flex-start" disabled={renewing} data-testid="hold-term-review">
                          <RadioGroup.ItemHiddenInput />
                          <RadioGroup.ItemIndicator mt="0.5" />
                          <Stack gap="0" minW="0">
                            <RadioGroup.ItemText fontWeight="medium">{t('moderation.hold.review', { days: HOLD_REVIEW_DAYS })}</RadioGroup.ItemText>
                            <Text fontSize="sm" color="fg.muted">
                              {renewing ? t('moderation.hold.reviewRenewing', { days: HOLD_REVIEW_DAYS }) : t('moderation.hold.reviewHelp', { days: HOLD_REVIEW_DAYS })}
                            </Text>
                          </Stack>
                        </RadioGroup.Item>
                        <RadioGroup.Item value="evidence" alignItems="flex-start" data-testid="hold-term-evidence">
                          <RadioGroup.ItemHiddenInput />
                          <RadioGroup.ItemIndicator mt="0.5" />
                          <Stack gap="0" minW="0">
                            <RadioGroup.ItemText fontWeight="medium">{t('moderation.hold.evidence', { days: HOLD_EVIDENCE_MAX_DAYS })}</RadioGroup.ItemText>
                            <Text fontSize="sm" color="fg.muted">
                              {t('moderation.hold.evidenceHelp', { days: HOLD_EVIDENCE_MAX_DAYS })}
                            </Text>
                          </Stack>
                        </RadioGroup.Item>
                      </Stack>
                    </RadioGroup.Root>
                  </Stack>
                  {withEvidence ? (
                    <Stack gap="4">
                      <Field.Root invalid={!!errors.days} required>
                        <Field.Label>
                          {t('moderation.hold.days')}
                          <Field.RequiredIndicator />
                        </Field.Label>
                        <Input
                          type="number"
                          inputMode="numeric"
                          min={1}
                          max={HOLD_EVIDENCE_MAX_DAYS}
                          step={1}
                          value={days}
                          onChange={(e) => setDays(e.target.value)}
                          maxW="32"
                          data-testid="hold-days"
                        />
                        {errors.days ? <Field.ErrorText>{errors.days}</Field.ErrorText> : null}
                      </Field.Root>
                      <Field.Root invalid={!!errors.evidence} required>
                        <Field.Label>
                          {t('moderation.hold.evidenceLabel')}
                          <Field.RequiredIndicator />
                        </Field.Label>
                        <Input
                          value={evidence}
                          onChange={(e) => setEvidence(e.target.value)}
                          maxLength={EVIDENCE_MAX_CHARS}
                          placeholder={t('moderation.hold.evidencePlaceholder')}
                          data-testid="hold-evidence"
                        />
                        {errors.evidence ? <Field.ErrorText>{errors.evidence}</Field.ErrorText> : <Field.HelperText>{t('moderation.hold.evidenceHash')}</Field.HelperText>}
                      </Field.Root>
                    </Stack>
                  ) : null}
                  {endsAbout ? (
                    <Text fontSize="sm" fontWeight="medium" data-testid="hold-ends-about">
                      {t('moderation.hold.endsAbout', { date: endsAbout })}
                    </Text>
                  ) : null}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" colorPalette="red" data-testid="hold-submit">
                  {renewing ? t('moderation.hold.extend') : t('moderation.hold.hold')}
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

/** Why the connected wallet cannot hold this NFT's sale, if it cannot (a sentence), else null. */
function useWalletProblem(nft: Nft | undefined, owner: string) {
  const { t } = useTranslation()
  const { address, isModerator } = useContractModerator()
  if (!nft || !address) return null
  if (address.toLowerCase() === owner) return t('moderation.hold.ownWallet')
  if (isModerator === false) return t('moderation.hold.notModerator', { address: shortenAddress(address) })
  return null
}

function HoldPanel({ nft, stolen }: { nft: Nft; stolen: boolean }) {
  const { t, i18n } = useTranslation()
  const { until, evidence } = useHoldState(nft)
  const actions = useHoldActions(nft)
  const problem = useWalletProblem(nft, actions.owner)
  const [asking, setAsking] = useState<'hold' | 'release' | null>(null)
  const name = nft.title || nft._id
  const held = !!until
  const open = (what: 'hold' | 'release') => {
    // No wallet yet: the guard opens the wallet dialog instead.
    if (actions.guard()) setAsking(what)
  }

  return (
    <Box borderTopWidth="1px" borderColor="border.muted" pt="3" data-testid="hold-controls">
      <Stack gap="2">
        {/* The icon stays beside the first line when the text wraps on a phone. */}
        <HStack gap="2" align="flex-start">
          <Box as="span" color={held ? 'fg.error' : 'fg.subtle'} flexShrink={0} mt="0.5">
            {held ? <IconShield aria-hidden /> : <IconShieldOff aria-hidden />}
          </Box>
          {held ? (
            <Text fontSize="sm" fontWeight="semibold" color="fg.error" data-testid="hold-state" data-held="true" data-until={until}>
              {t('moderation.hold.heldUntil', { date: unbreakable(formatDateTime(until, i18n.resolvedLanguage)) })}
              {evidence ? (
                <Badge colorPalette="red" variant="subtle" ms="2" verticalAlign="text-bottom" data-testid="hold-evidence-badge">
                  {t('moderation.hold.withEvidence')}
                </Badge>
              ) : null}
            </Text>
          ) : (
            <Text fontSize="sm" color="fg.muted" data-testid="hold-state" data-held="false">
              {t('moderation.hold.notHeld')}
            </Text>
          )}
        </HStack>
        {problem ? (
          <Text fontSize="sm" color="fg.warning" data-testid="hold-problem">
            {problem}
          </Text>
        ) : null}
        <HStack gap="2" wrap="wrap">
          <Button
            size="sm"
            colorPalette="red"
            variant={stolen && !held ? 'solid' : 'outline'}
            disabled={!!problem}
            onClick={() => open('hold')}
            data-testid="action-hold"
          >
            <IconShield aria-hidden /> {held ? t('moderation.hold.extend') : t('moderation.hold.hold')}
          </Button>
          {held ? (
            <Button size="sm" variant="outline" disabled={!!problem} onClick={() => open('release')} data-testid="action-release">
              <IconShieldOff aria-hidden /> {t('moderation.hold.release')}
            </Button>
          ) : null}
        </HStack>
      </Stack>
      {asking === 'hold' ? (
        <HoldDialog
          name={name}
          renewing={held}
          onClose={() => setAsking(null)}
          onSubmit={(days, note) => {
            // The busy overlay and the snackbars tell the rest.
            setAsking(null)
            void actions.hold(days, note)
          }}
        />
      ) : null}
      <ConfirmDialog
        open={asking === 'release'}
        title={t('moderation.hold.releaseTitle', { name })}
        text={t('moderation.hold.releaseText')}
        confirmLabel={t('moderation.hold.release')}
        onConfirm={() => {
          setAsking(null)
          void actions.release()
        }}
        onClose={() => setAsking(null)}
      />
    </Box>
  )
}

/**
 * A reported NFT's stolen-item hold in the queue: whether its sale is held and until when (the
 * read model's), and Hold sale / Extend / Release hold signed by the moderator's wallet, refused
 * here with the reason when that wallet is not a moderator of the contract or owns the NFT.
 * `stolen`: an open report says it was stolen, so holding is the likely action.
 */
export function HoldControls({ nftId, stolen }: { nftId: string; stolen: boolean }) {
  const { data: nft } = useNftDetail(nftId)
  // A burned NFT (or one the detail does not answer) has no sale to hold.
  if (!nft?.nftTokenId) return null
  return <HoldPanel nft={nft} stolen={stolen} />
}
