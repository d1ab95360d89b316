import { Badge, Box, Button, Fieldset, Flex, Heading, HStack, Image, Input, NativeSelect, Stack, Text, Textarea, Wrap } from '@chakra-ui/react'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuImagePlus, LuListPlus, LuPercent } from 'react-icons/lu'
import { useNavigate } from 'react-router'
import type { Hash, TransactionReceipt } from 'viem'
import { PageContainer } from '@/components/page-container'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { GradientButton } from '@/components/ui/gradient-button'
import { notify } from '@/components/ui/toaster'
import { ApiError, errorMessage } from '@/lib/api-client'
import { useBusyStore } from '@/lib/busy-store'
import { useCategories } from '@/lib/nft/api'
import { categoryLabel } from '@/lib/nft/category'
import { useTrade } from '@/lib/nft/trade'
import type { Errors } from '@/lib/validation'
import { useConnectionState } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { recordGeneration } from '../api/record-generation'
import { uploadToIpfs } from '../api/upload-to-ipfs'
import { useRevealInvalid } from '../reveal-invalid'
import { mintArgs, recordedRoyalties, recordedSale } from '../mint'
import {
  type AssetDetails,
  type PropertyRow,
  type RoyaltyRow,
  type SaleErrors,
  type SaleValues,
  toLocalDateTime,
  validateAssetDetails,
  validateSale,
} from '../validation'
import { PropertiesDialog } from './properties-dialog'
import { RoyaltyDialog } from './royalty-dialog'
import { SaleFields } from './sale-fields'
import { TEXT_LIMITS } from '@/lib/text-limits'
import { ASSET_IMAGE_KINDS, isImageOf } from '@/lib/image-content'

/** The image types the picker offers and the upload takes (PNG, JPEG, SVG). */
export const ASSET_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml']

/** The server's refusal of a file that is no image by content (whatever its name), shown as the wrong-type message. */
export const NOT_AN_IMAGE = 'file: not an image'

type Minted = { hash: Hash; receipt: TransactionReceipt }

/** Without the field: a field's error goes away as soon as the user edits it. */
function without<T>(errors: Errors<T>, field: keyof T): Errors<T> {
  if (!errors[field]) return errors
  const next = { ...errors }
  delete next[field]
  return next
}

/**
 * /create-asset, the spec's two steps. Step 0 (heading Create Asset): image, name, description,
 * category and properties, uploaded to IPFS before step 1 opens. Step 1 (heading Add NFT): sale
 * type, prices, royalties, auction end; then the wallet mints with the metadata URI, the page
 * waits for 1 confirmation, records the NFT and goes to /myprofile.
 *
 * A token minted whose record call failed is not minted again: the next submit only records it.
 */
export function CreateAssetPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const busy = useBusyStore()
  const trade = useTrade()
  const categories = useCategories()
  const { status } = useConnectionState()
  const walletType = useWalletStore((s) => s.walletType)
  const openWalletDialog = useWalletStore((s) => s.openDialog)

  const [step, setStep] = useState<0 | 1>(0)
  const [details, setDetails] = useState<AssetDetails>({ title: '', description: '', category: '', file: null })
  const [detailErrors, setDetailErrors] = useState<Errors<AssetDetails>>({})
  const [preview, setPreview] = useState<string | null>(null)
  const [properties, setProperties] = useState<PropertyRow[]>([])
  const [propertiesOpen, setPropertiesOpen] = useState(false)
  const [metaData, setMetaData] = useState<string | null>(null)
  const [sale, setSale] = useState<SaleValues>(() => ({ formOfSale: 'FIXEDPRICE', price: '', basePrice: '', buyPrice: '', auctionEnd: toLocalDateTime(new Date()) }))
  const [saleErrors, setSaleErrors] = useState<SaleErrors>({})
  const [royalties, setRoyalties] = useState<RoyaltyRow[]>([])
  const [royaltyOpen, setRoyaltyOpen] = useState(false)
  const [minted, setMinted] = useState<Minted | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const fileInput = useRef<HTMLInputElement>(null)
  const askedForWallet = useRef(false)
  const revealInvalid = useRevealInvalid()

  // Signed in without a wallet: the wallet dialog opens (the router already asked for sign-in).
  useEffect(() => {
    if (askedForWallet.current || status === 'connecting' || status === 'reconnecting') return
    askedForWallet.current = true
    if (status !== 'connected' || !walletType) openWalletDialog()
  }, [status, walletType, openWalletDialog])

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview])

  // A category load failure: the server's message, logged.
  useEffect(() => {
    if (!categories.error) return
    console.error('Could not load the categories', categories.error)
    notify('error', errorMessage(categories.error, t('common.genericError')))
  }, [categories.error, t])

  const setDetail = <K extends keyof AssetDetails>(field: K, value: AssetDetails[K]) => {
    setDetails((d) => ({ ...d, [field]: value }))
    setDetailErrors((e) => without(e, field))
  }
  const setSaleField = (field: keyof SaleValues, value: string) => {
    setSale((s) => ({ ...s, [field]: value }))
    setSaleErrors((e) => without(field === 'formOfSale' ? {} : e, field))
  }

  /** A picked file is taken only if its content is a PNG, JPEG or SVG image (its name may say anything). */
  const onFile = async (file: File | undefined) => {
    if (!file) return
    if (!(await isImageOf(file, ASSET_IMAGE_KINDS))) {
      setDetailErrors((e) => ({ ...e, file: 'createAsset.notAnImage' }))
      revealInvalid()
      return
    }
    setDetail('file', file)
    setPreview(URL.createObjectURL(file))
  }

  /** Step 0: validate, upload the image and its metadata, then step 1. */
  const onNext = async (event: FormEvent) => {
    event.preventDefault()
    const found = validateAssetDetails(details)
    setDetailErrors(found)
    if (Object.keys(found).length > 0 || !details.file) {
      revealInvalid()
      return
    }
    setSubmitting(true)
    busy.show(t('createAsset.uploading'))
    try {
      const uri = await uploadToIpfs({
        title: details.title.trim(),
        description: details.description.trim(),
        nftCategory: details.category,
        properties: properties.map(({ key, value }) => ({ key, value })),
        file: details.file,
      })
      setMetaData(uri)
      setStep(1)
      notify('success', t('createAsset.uploaded'))
    } catch (error) {
      console.error('IPFS upload failed', error)
      if (error instanceof ApiError && error.statuscode === 400 && error.message.startsWith(NOT_AN_IMAGE)) {
        setDetailErrors((e) => ({ ...e, file: 'createAsset.imageTypes' }))
        revealInvalid()
      } else {
        notify('error', errorMessage(error, t('createAsset.uploadFailed')))
      }
    } finally {
      busy.hide()
      setSubmitting(false)
    }
  }

  const record = (tokenUri: string, receipt: TransactionReceipt) =>
    recordGeneration({
      ...recordedSale(sale),
      metaData: tokenUri,
      receipt,
      nftCategory: details.category,
      royalty: recordedRoyalties(royalties),
    })

  /** Step 1: guards (wallet, network), the sale rules, mint, 1 confirmation, record, /myprofile. */
  const onCreate = async (event: FormEvent) => {
    event.preventDefault()
    if (!metaData || submitting) return
    setSubmitting(true)
    try {
      if (minted) {
        // Already on chain: only the record call is left.
        busy.show(t('createAsset.creating'))
        try {
          await record(metaData, minted.receipt)
        } catch (error) {
          console.error('Recording the NFT failed', error)
          notify('error', errorMessage(error, t('createAsset.failed')))
          return
        } finally {
          busy.hide()
        }
        notify('success', t('createAsset.created'))
        navigate('/myprofile')
        return
      }
      if (!trade.guard()) return
      const found = validateSale(sale, royalties, new Date())
      setSaleErrors(found)
      if (Object.keys(found).length > 0) {
        revealInvalid()
        return
      }
      const outcome = await trade.run({
        call: { functionName: 'mint', args: mintArgs(metaData, sale, royalties) },
        progress: t('createAsset.minting'),
        recording: t('createAsset.creating'),
        record: async (hash, receipt) => {
          setMinted({ hash, receipt })
          await record(metaData, receipt)
        },
        success: t('createAsset.created'),
        failure: t('createAsset.failed'),
        preferServerMessage: true,
      })
      if (outcome.ok) navigate('/myprofile')
    } finally {
      setSubmitting(false)
    }
  }

  const royaltyTotal = royalties.reduce((sum, r) => sum + Number(r.percentage), 0)

  return (
    <PageContainer maxW="5xl">
      <Stack gap="6">
        <Stack gap="3">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }} data-testid="create-heading">
            {step === 0 ? t('createAsset.title') : t('createAsset.addNft')}
          </Heading>
          <HStack gap="3" aria-hidden>
            {[t('createAsset.steps.details'), t('createAsset.steps.sale')].map((label, index) => (
              <HStack key={label} gap="2">
                <Box
                  boxSize="7"
                  borderRadius="full"
                  display="grid"
                  placeItems="center"
                  fontSize="sm"
                  fontWeight="bold"
                  bg={index <= step ? 'brand.solid' : 'bg.muted'}
                  color={index <= step ? 'white' : 'fg.muted'}
                >
                  {index + 1}
                </Box>
                <Text fontSize="sm" fontWeight={index === step ? 'semibold' : 'normal'} color={index === step ? 'fg' : 'fg.muted'}>
                  {label}
                </Text>
                {index === 0 && <Box w="8" h="2px" bg={step === 1 ? 'brand.solid' : 'border'} />}
              </HStack>
            ))}
          </HStack>
        </Stack>

        <Flex gap={{ base: '6', md: '10' }} direction={{ base: 'column', md: 'row' }} align="start">
          <Stack gap="2" w={{ base: '100%', md: '340px' }} flexShrink={0} data-invalid={detailErrors.file ? '' : undefined}>
            <Text fontWeight="medium" fontSize="sm">
              {t('createAsset.image')}
            </Text>
            <Box
              asChild
              cursor={step === 0 ? 'pointer' : 'default'}
              borderWidth="2px"
              borderStyle={preview ? 'solid' : 'dashed'}
              borderColor={detailErrors.file ? 'border.error' : 'border'}
              borderRadius="2xl"
              bg="bg.panel"
              overflow="hidden"
              aspectRatio={{ base: 4 / 3, md: 1 }}
              w="100%"
              display="grid"
              placeItems="center"
              _hover={step === 0 ? { borderColor: 'brand.solid' } : undefined}
              aria-label={preview ? t('createAsset.changeImage') : t('createAsset.chooseImage')}
              aria-describedby={detailErrors.file ? 'asset-file-error' : undefined}
            >
              <button type="button" onClick={() => fileInput.current?.click()} disabled={step !== 0} data-testid="asset-image-button">
                {preview ? (
                  <Image src={preview} alt={t('createAsset.previewAlt')} w="100%" h="100%" objectFit="contain" />
                ) : (
                  <Stack align="center" gap="2" color="fg.muted" p="6">
                    <LuImagePlus size="40" />
                    <Text fontWeight="medium">{t('createAsset.chooseImage')}</Text>
                    <Text fontSize="sm">{t('createAsset.imageHint')}</Text>
                  </Stack>
                )}
              </button>
            </Box>
            <input
              ref={fileInput}
              type="file"
              accept={ASSET_IMAGE_TYPES.join(',')}
              hidden
              data-testid="asset-file-input"
              onChange={(e) => {
                void onFile(e.target.files?.[0])
                e.target.value = ''
              }}
            />
            {detailErrors.file && (
              <Text color="fg.error" fontSize="xs" id="asset-file-error" data-testid="asset-file-error">
                {t(detailErrors.file)}
              </Text>
            )}
            {step === 1 && (
              <Stack gap="1" pt="2">
                <Text fontWeight="semibold" fontSize="lg" wordBreak="break-word">
                  {details.title}
                </Text>
                <Text fontSize="sm" color="fg.muted" lineClamp={3}>
                  {details.description}
                </Text>
              </Stack>
            )}
          </Stack>

          <Box flex="1" w="100%">
            {step === 0 ? (
              <Form onSubmit={onNext} gap="5" data-testid="create-step-0">
                <FormField label={t('createAsset.name')} error={detailErrors.title && t(detailErrors.title)}>
                  <Input value={details.title} maxLength={TEXT_LIMITS.nftTitle} placeholder={t('createAsset.namePlaceholder')} onChange={(e) => setDetail('title', e.target.value)} data-testid="asset-title" />
                </FormField>
                <FormField label={t('createAsset.description')} error={detailErrors.description && t(detailErrors.description)}>
                  <Textarea
                    rows={4}
                    maxLength={TEXT_LIMITS.nftDescription}
                    value={details.description}
                    placeholder={t('createAsset.descriptionPlaceholder')}
                    onChange={(e) => setDetail('description', e.target.value)}
                    data-testid="asset-description"
                  />
                </FormField>
                <FormField label={t('createAsset.category')} error={detailErrors.category && t(detailErrors.category)}>
                  <NativeSelect.Root>
                    <NativeSelect.Field
                      value={details.category}
                      onChange={(e) => setDetail('category', e.target.value)}
                      data-testid="asset-category"
                    >
                      <option value="">{t('createAsset.categoryPlaceholder')}</option>
                      {(categories.data ?? []).map((c) => (
                        <option key={c.id} value={c.id}>
                          {categoryLabel(t, c)}
                        </option>
                      ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </FormField>
                <Stack gap="2">
                  <Text fontWeight="medium" fontSize="sm">
                    {t('createAsset.properties')}
                  </Text>
                  <Text fontSize="sm" color="fg.muted">
                    {t('createAsset.propertiesHint')}
                  </Text>
                  {properties.length > 0 && (
                    <Wrap gap="2" data-testid="asset-properties">
                      {properties.map((p) => (
                        <Badge key={p.id} size="lg" variant="subtle" colorPalette="brand" borderRadius="md" px="3" py="1">
                          {p.key}: {p.value}
                        </Badge>
                      ))}
                    </Wrap>
                  )}
                  <Button variant="outline" size="sm" alignSelf="start" onClick={() => setPropertiesOpen(true)} data-testid="open-properties">
                    <LuListPlus /> {t('createAsset.editProperties')}
                  </Button>
                </Stack>
                <GradientButton type="submit" alignSelf={{ base: 'stretch', md: 'start' }} px="10" loading={submitting} data-testid="create-next">
                  {t('createAsset.next')}
                </GradientButton>
              </Form>
            ) : (
              <Form onSubmit={onCreate} gap="5" data-testid="create-step-1">
                <Fieldset.Root disabled={!!minted} minW="0">
                  <SaleFields values={sale} errors={saleErrors} onChange={setSaleField} forms={['FIXEDPRICE', 'AUCTION', 'NOT_FOR_SALE']} now={new Date()}>
                    <Stack gap="2">
                      <Text fontWeight="medium" fontSize="sm">
                        {t('createAsset.royalty')}
                      </Text>
                      <Text fontSize="sm" color="fg.muted">
                        {royalties.length > 0 ? t('createAsset.royaltyTotal', { total: royaltyTotal }) : t('createAsset.royaltyHint')}
                      </Text>
                      {royalties.length > 0 && (
                        <Stack gap="1" data-testid="asset-royalties">
                          {royalties.map((r) => (
                            <Text key={r.id} fontSize="sm" fontFamily="mono" wordBreak="break-all">
                              {r.address} · {r.percentage}%
                            </Text>
                          ))}
                        </Stack>
                      )}
                      <Button
                        variant="outline"
                        size="sm"
                        alignSelf="start"
                        borderColor={saleErrors.royalty ? 'border.error' : undefined}
                        onClick={() => setRoyaltyOpen(true)}
                        data-invalid={saleErrors.royalty ? '' : undefined}
                        data-testid="open-royalty"
                      >
                        <LuPercent /> {t('createAsset.editRoyalty')}
                      </Button>
                      {saleErrors.royalty && (
                        <Text color="fg.error" fontSize="xs" data-testid="royalty-error">
                          {t(saleErrors.royalty)}
                        </Text>
                      )}
                    </Stack>
                  </SaleFields>
                </Fieldset.Root>
                {minted && (
                  <Text fontSize="sm" color="orange.fg" data-testid="record-pending">
                    {t('createAsset.retryRecord')}
                  </Text>
                )}
                <HStack gap="3" flexWrap="wrap">
                  <Button
                    variant="ghost"
                    disabled={!!minted || submitting}
                    onClick={() => {
                      setStep(0)
                      setMetaData(null)
                    }}
                  >
                    {t('createAsset.back')}
                  </Button>
                  <GradientButton type="submit" px="10" loading={submitting} data-testid="create-submit">
                    {t('createAsset.create')}
                  </GradientButton>
                </HStack>
              </Form>
            )}
          </Box>
        </Flex>
      </Stack>
      <PropertiesDialog open={propertiesOpen} rows={properties} onSave={setProperties} onClose={() => setPropertiesOpen(false)} />
      <RoyaltyDialog
        open={royaltyOpen}
        rows={royalties}
        onSave={(rows) => {
          setRoyalties(rows)
          setSaleErrors((e) => without(e, 'royalty'))
        }}
        onClose={() => setRoyaltyOpen(false)}
      />
    </PageContainer>
  )
}
