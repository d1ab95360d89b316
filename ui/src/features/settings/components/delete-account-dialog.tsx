import { Alert, Badge, Box, Button, CloseButton, Dialog, Grid, HStack, Icon, Input, Link as ChakraLink, Portal, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { LuCheck, LuEye, LuPenLine, LuTrash2, LuWallet } from 'react-icons/lu'
import { Link, useNavigate } from 'react-router'
import { FormField } from '@/components/ui/form-field'
import { notify } from '@/components/ui/toaster'
import { checksummed } from '@/lib/address'
import { errorMessage } from '@/lib/api-client'
import { endSessionAfter } from '@/lib/auth'
import { TEXT_LIMITS } from '@/lib/text-limits'
import { useUser } from '@/lib/use-user'
import { loadChain, useConnectionState } from '@/lib/wallet-connection'
import { fetchWalletNonce } from '@/lib/wallet-nonce'
import { useWalletStore } from '@/lib/wallet-store'
import { deleteAccount, type DeletionInfo, type DeletionProof, useDeletionInfo } from '../api/privacy'

/** What deleting erases, in the order the dialog lists it. */
const GOES = ['email', 'name', 'bio', 'images', 'google', 'keys', 'messages', 'signIn', 'wallets'] as const
/** What stays public on chain. */
const STAYS = ['trades', 'collections'] as const

type WalletProof = Extract<DeletionProof, { wallet: unknown }>['wallet']

/**
 * The dialog behind "Delete my account": what goes and what stays, what the person still has
 * open on chain (only their wallet can cancel it), then the password (or, for an account that
 * signs in with Google only, a linked wallet's signature) and a destructive confirm. On success
 * the session ends here, as a logout does, and the home page says the account was deleted.
 */
export function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { data: info, error: loadError, isLoading } = useDeletionInfo(true)
  const [password, setPassword] = useState('')
  const [proof, setProof] = useState<WalletProof | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [deleting, setDeleting] = useState(false)

  const confirmed = info ? (info.hasPassword ? password.length > 0 : !!proof) : false

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!info || !confirmed) return
    setDeleting(true)
    setError(null)
    try {
      await deleteAccount(info.hasPassword ? { password } : { wallet: proof! })
      await endSessionAfter(() => navigate('/', { replace: true }))
      notify('success', t('yourData.deleted'))
    } catch (err) {
      setError(errorMessage(err, t('common.genericError')))
      // A signature's nonce is spent once checked: a new try signs again.
      setProof(null)
      setDeleting(false)
    }
  }

  return (
    <Dialog.Root
      open
      onOpenChange={(e) => (e.open || deleting ? undefined : onClose())}
      placement="center"
      size="lg"
      scrollBehavior="inside"
      role="alertdialog"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="delete-account-dialog">
            <form onSubmit={(e) => void submit(e)} noValidate style={{ display: 'contents' }}>
              <Dialog.Header>
                <Dialog.Title>{t('yourData.dialog.title')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                {isLoading ? (
                  <Stack gap="3" data-testid="delete-account-loading">
                    <Skeleton h="6" w="60%" />
                    <Skeleton h="24" borderRadius="lg" />
                    <Skeleton h="16" borderRadius="lg" />
                  </Stack>
                ) : loadError || !info ? (
                  <Text color="fg.error" role="alert">
                    {errorMessage(loadError, t('common.genericError'))}
                  </Text>
                ) : (
                  <Stack gap="5">
                    <Text color="fg.muted">{t('yourData.dialog.intro')}</Text>
                    <Consequences info={info} />
                    {info.openOnChain.length ? <OpenOnChain items={info.openOnChain} /> : null}
                    {info.hasPassword ? (
                      <FormField label={t('yourData.dialog.password')} helper={t('yourData.dialog.passwordHelp')} error={error}>
                        <Input
                          type="password"
                          autoComplete="current-password"
                          value={password}
                          maxLength={TEXT_LIMITS.password}
                          onChange={(e) => {
                            setPassword(e.target.value)
                            setError(null)
                          }}
                          data-testid="delete-account-password"
                        />
                      </FormField>
                    ) : (
                      <WalletConfirm info={info} proof={proof} onSigned={setProof} error={error} onError={setError} />
                    )}
                  </Stack>
                )}
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose} disabled={deleting}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" colorPalette="red" disabled={!confirmed} loading={deleting} data-testid="delete-account-confirm">
                  <LuTrash2 /> {t('yourData.dialog.confirm')}
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} disabled={deleting} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

/** The two lists: what deleting erases, and what stays public on chain under the wallet address. */
function Consequences({ info }: { info: DeletionInfo }) {
  const { t } = useTranslation()
  return (
    <Stack gap="4">
      <Box borderWidth="1px" borderColor="border.error" bg="bg.error" borderRadius="lg" p="4" data-testid="delete-account-goes">
        <Text fontWeight="semibold" mb="2">
          {t('yourData.dialog.goesTitle')}
        </Text>
        <Grid as="ul" templateColumns={{ base: '1fr', sm: '1fr 1fr' }} columnGap="4" rowGap="1.5" listStyleType="none" m="0" p="0">
          {GOES.map((item) => (
            <HStack as="li" key={item} gap="2" align="flex-start" gridColumn={item === 'wallets' ? '1 / -1' : undefined} fontSize="sm">
              <Icon as={LuTrash2} color="fg.error" mt="0.5" flexShrink={0} />
              <Box minW="0">
                {t(`yourData.dialog.goes.${item}`)}
                {item === 'wallets' && info.wallets.length ? (
                  <Stack gap="0.5" mt="1" data-testid="delete-account-wallets">
                    {info.wallets.map((address) => (
                      <Text key={address} fontFamily="mono" fontSize="xs" color="fg.muted" wordBreak="break-all">
                        {checksummed(address)}
                      </Text>
                    ))}
                  </Stack>
                ) : null}
              </Box>
            </HStack>
          ))}
        </Grid>
      </Box>
      <Box borderWidth="1px" borderRadius="lg" p="4" data-testid="delete-account-stays">
        <Text fontWeight="semibold" mb="2">
          {t('yourData.dialog.staysTitle')}
        </Text>
        <Stack as="ul" gap="1.5" listStyleType="none" m="0" p="0">
          {STAYS.map((item) => (
            <HStack as="li" key={item} gap="2" align="flex-start" fontSize="sm">
              <Icon as={LuEye} color="fg.muted" mt="0.5" flexShrink={0} />
              <Text>{t(`yourData.dialog.stays.${item}`)}</Text>
            </HStack>
          ))}
        </Stack>
      </Box>
    </Stack>
  )
}

/** Listings, auctions, bids and offers still open on chain: links to their NFTs, and who can cancel them. */
function OpenOnChain({ items }: { items: DeletionInfo['openOnChain'] }) {
  const { t } = useTranslation()
  return (
    <Alert.Root status="warning" borderRadius="lg" alignItems="flex-start" data-testid="delete-account-open">
      <Alert.Indicator />
      <Stack gap="2" flex="1" minW="0">
        <Alert.Title>{t('yourData.dialog.openTitle')}</Alert.Title>
        <Alert.Description>{t('yourData.dialog.openText')}</Alert.Description>
        <Stack as="ul" gap="1.5" listStyleType="none" m="0" p="0">
          {items.map((item) => (
            <HStack as="li" key={`${item.kind}-${item.nftId}`} gap="2" minW="0" data-testid="delete-account-open-item">
              <Badge colorPalette="orange" variant="subtle" flexShrink={0}>
                {t(`yourData.dialog.kinds.${item.kind}`)}
              </Badge>
              <ChakraLink asChild fontWeight="medium" minW="0" truncate>
                <Link to={`/nft/${encodeURIComponent(item.nftId)}`} target="_blank" rel="noopener">
                  {item.title || `#${item.nftId.split('-').pop()}`}
                </Link>
              </ChakraLink>
            </HStack>
          ))}
        </Stack>
      </Stack>
    </Alert.Root>
  )
}

/**
 * The confirmation of an account without a password: a Sign-In-with-Ethereum message, like the
 * one that linked the wallet, signed by a wallet linked to the account. Asks for such a wallet
 * first when the connected one is another (or none is).
 */
function WalletConfirm({
  info,
  proof,
  onSigned,
  error,
  onError,
}: {
  info: DeletionInfo
  proof: WalletProof | null
  onSigned: (proof: WalletProof) => void
  error: string | null
  onError: (error: string | null) => void
}) {
  const { t } = useTranslation()
  const { user } = useUser()
  const { status, address } = useConnectionState()
  const openDialog = useWalletStore((s) => s.openDialog)
  const [signing, setSigning] = useState(false)
  // The profile is refetched once a wallet is linked from the wallet dialog; the dialog's list is not.
  const linked = [...info.wallets, ...(user?.connectedWallet ?? []).map((w) => w.walletAddress)].map((a) => a.toLowerCase())
  const usable = status === 'connected' && !!address && linked.includes(address.toLowerCase())

  const sign = async () => {
    if (!address) return
    setSigning(true)
    onError(null)
    try {
      const [chain, nonce, { buildLinkMessage }] = await Promise.all([loadChain(), fetchWalletNonce(), import('@/lib/siwe')])
      const message = buildLinkMessage({ address, nonce })
      const signature = await chain.signMessage(message, address)
      onSigned({ address, message, signature })
    } catch (err) {
      console.error('Signing the deletion failed', err)
      onError((err as { shortMessage?: string })?.shortMessage ?? errorMessage(err, t('yourData.dialog.signFailed')))
    } finally {
      setSigning(false)
    }
  }

  return (
    <Stack gap="3" data-testid="delete-account-wallet">
      <Text>{linked.length ? t('yourData.dialog.signIntro') : t('yourData.dialog.noWallet')}</Text>
      {proof ? (
        <HStack gap="2" color="fg.success" data-testid="delete-account-signed">
          <Icon as={LuCheck} />
          <Text fontSize="sm" wordBreak="break-all">
            {t('yourData.dialog.signed', { address: checksummed(proof.address) })}
          </Text>
        </HStack>
      ) : usable ? (
        <Button variant="outline" alignSelf="flex-start" onClick={() => void sign()} loading={signing} data-testid="delete-account-sign">
          <LuPenLine /> {t('yourData.dialog.sign')}
        </Button>
      ) : (
        <Button variant="outline" alignSelf="flex-start" onClick={() => openDialog(info.wallets[0])} data-testid="delete-account-connect">
          <LuWallet /> {t('yourData.dialog.connectLinked')}
        </Button>
      )}
      {error ? (
        <Text color="fg.error" fontSize="sm" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  )
}
