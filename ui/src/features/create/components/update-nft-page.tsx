import { Box, Button, Center, Flex, Heading, Stack, Text } from '@chakra-ui/react'
import { type FormEvent, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams } from 'react-router'
import { NftCard } from '@/components/nft'
import { OwnerWalletNotice } from '@/components/nft/owner-wallet-notice'
import { PageContainer } from '@/components/page-container'
import { CardSkeleton } from '@/components/skeletons'
import { Form } from '@/components/ui/form'
import { GradientButton } from '@/components/ui/gradient-button'
import { useSession } from '@/lib/auth'
import { useNftDetail } from '@/lib/nft/api'
import { ownerAddress } from '@/lib/nft/format'
import { useTrade } from '@/lib/nft/trade'
import type { Nft } from '@/lib/nft/types'
import { updateNft } from '../api/update-nft'
import { chainSale, recordedSale } from '../mint'
import { useRevealInvalid } from '../reveal-invalid'
import { type SaleErrors, type SaleValues, checkPrice, parseLocalDateTime, toLocalDateTime, validateSale } from '../validation'
import { SaleFields } from './sale-fields'

/** A price the preview can show: the typed one when it is a valid price, else none ('': the card shows a dash). */
const shown = (raw: string) => (checkPrice(raw, 'validation.required') ? '' : raw.trim())

/**
 * The NFT as it will look once updated: the card of the preview. Only what the form changes
 * (sale type, prices, auction end) differs from the NFT as it is.
 */
export function previewNft(nft: Nft, sale: SaleValues): Nft {
  if (sale.formOfSale === 'AUCTION') {
    const end = parseLocalDateTime(sale.auctionEnd)
    return {
      ...nft,
      formOfSale: 'AUCTION',
      fixedPrice: shown(sale.buyPrice),
      currentAuction: {
        auctionId: '',
        auctionStartPrice: shown(sale.basePrice),
        auctionBuyNowPrice: shown(sale.buyPrice),
        auctionHighestBid: '0',
        auctionEndHours: end ? end.toISOString() : '',
        auctionEnded: false,
      },
    }
  }
  return { ...nft, formOfSale: 'FIXEDPRICE', fixedPrice: shown(sale.price), currentAuction: null }
}

/**
 * /nft/update/{id}: the owner of an NFT that is not for sale puts it on a fixed sale or an
 * auction, with a live preview card. Validate, then the chain's toggleForSale (1 confirmation),
 * then PUT /api/nft/update/{id}; 'NFT updated!' and /myprofile.
 */
export function UpdateNftPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  const navigate = useNavigate()
  const me = useSession((s) => s.user?.userId)
  const detail = useNftDetail(id)
  const trade = useTrade()
  const [sale, setSale] = useState<SaleValues>(() => ({ formOfSale: 'FIXEDPRICE', price: '', basePrice: '', buyPrice: '', auctionEnd: toLocalDateTime(new Date()) }))
  const [errors, setErrors] = useState<SaleErrors>({})
  const [submitting, setSubmitting] = useState(false)
  const revealInvalid = useRevealInvalid()
  const nft = detail.data
  const preview = useMemo(() => (nft ? previewNft(nft, sale) : null), [nft, sale])

  const onChange = (field: keyof SaleValues, value: string) => {
    setSale((s) => ({ ...s, [field]: value }))
    setErrors((e) => {
      if (field === 'formOfSale') return {}
      const next = { ...e }
      delete next[field]
      return next
    })
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!nft || submitting) return
    const found = validateSale(sale, null, new Date())
    setErrors(found)
    if (Object.keys(found).length > 0) {
      revealInvalid()
      return
    }
    setSubmitting(true)
    try {
      const chain = chainSale(sale)
      const outcome = await trade.run({
        ownerAddress: ownerAddress(nft),
        call: { functionName: 'toggleForSale', args: [BigInt(nft.nftTokenId), chain.saleType, chain.price, chain.endSeconds, chain.basePrice] },
        progress: t('updateNft.updating'),
        record: (hash) => updateNft(nft._id, { ...recordedSale(sale), transactionHash: hash }),
        success: t('updateNft.updated'),
        failure: t('updateNft.failed'),
        preferServerMessage: true,
        nftId: nft._id,
      })
      if (outcome.ok) navigate('/myprofile')
    } finally {
      setSubmitting(false)
    }
  }

  let body
  if (detail.error) {
    body = <Notice text={t('updateNft.notFound')} />
  } else if (!nft || !preview) {
    body = (
      <Box maxW="sm" data-testid="update-loading">
        <CardSkeleton />
      </Box>
    )
  } else if (!me || nft.currentOwner?.userId !== me) {
    body = <Notice text={t('updateNft.notOwner')} to={`/nft/${nft._id}`} />
  } else if (nft.formOfSale !== 'NOT_FOR_SALE') {
    body = <Notice text={t('updateNft.onSale')} to={`/nft/${nft._id}`} />
  } else {
    body = (
      <Stack gap="6">
        <OwnerWalletNotice ownerAddress={ownerAddress(nft)} />
        <Flex gap={{ base: '8', md: '12' }} direction={{ base: 'column', md: 'row' }} align="start">
          <Form onSubmit={onSubmit} gap="6" flex="1" w="100%" data-testid="update-form">
            <SaleFields values={sale} errors={errors} onChange={onChange} forms={['FIXEDPRICE', 'AUCTION']} now={new Date()} />
            <GradientButton type="submit" alignSelf={{ base: 'stretch', md: 'start' }} px="10" loading={submitting} data-testid="update-submit">
              {t('updateNft.submit')}
            </GradientButton>
          </Form>
          <Stack gap="3" w={{ base: '100%', md: '320px' }} maxW={{ base: 'sm', md: 'none' }} flexShrink={0} data-testid="update-preview">
            <Text fontWeight="medium" fontSize="sm" color="fg.muted">
              {t('updateNft.preview')}
            </Text>
            <NftCard nft={preview} preview />
          </Stack>
        </Flex>
      </Stack>
    )
  }

  return (
    <PageContainer maxW="5xl">
      <Stack gap="6">
        <Stack gap="1">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
            {t('updateNft.title')}
          </Heading>
          {nft && (
            <Text color="fg.muted" wordBreak="break-word">
              {nft.title}
            </Text>
          )}
        </Stack>
        {body}
      </Stack>
    </PageContainer>
  )
}

function Notice({ text, to }: { text: string; to?: string }) {
  const { t } = useTranslation()
  return (
    <Center py="12" flexDirection="column" gap="4" data-testid="update-notice">
      <Text color="fg.muted" textAlign="center">
        {text}
      </Text>
      {to && (
        <Button asChild variant="outline">
          <Link to={to}>{t('updateNft.viewNft')}</Link>
        </Button>
      )}
    </Center>
  )
}
