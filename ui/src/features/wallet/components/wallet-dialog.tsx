import { Alert, Box, Button, CloseButton, Dialog, Flex, HStack, Icon, Link, NativeSelect, Portal, Spinner, Stack, Text } from '@chakra-ui/react'
import { useEffect, useState, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import type { IconType } from 'react-icons'
import { LuFlaskConical, LuWallet } from 'react-icons/lu'
import { SiWalletconnect } from 'react-icons/si'
import type { Config, Connector } from '@wagmi/core'
import { disconnect, getConnection, getConnectors, watchConnectors } from '@wagmi/core/actions'
import { useAppConfig } from '@/lib/app-config'
import { DEV_WALLET_ACCOUNTS, getDevWalletIndex, setDevWalletIndex } from '@/lib/dev-wallet-connector'
import { checksummed } from '@/lib/address'
import { shortenAddress } from '@/lib/format'
import { isMobileDevice } from '@/lib/wagmi'
import { type ChainRuntime, useChain } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { type DevAccount, useDevAccounts } from '../api/dev-wallets'
import { useLinkWallet } from '../hooks/use-link-wallet'
import { detectInjectedWallet } from '../wallet-kinds'
import type { TranslationKey } from '@/lib/i18n'

/** The Coinbase mark: a ring around a small square. */
const CoinbaseMark: IconType = (props) => (
  <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" {...props}>
    <circle cx="12" cy="12" r="7.5" fill="none" stroke="currentColor" strokeWidth="3" />
    <rect x="10" y="10" width="4" height="4" rx="0.6" fill="currentColor" />
  </svg>
)

type Choice = { connector: Connector; labelKey: TranslationKey; icon: IconType; color: string }

function choiceFor(connector: Connector): Choice | null {
  const id = connector.id.toLowerCase()
  if (id.includes('metamask')) return { connector, labelKey: 'wallet.kinds.metamask', icon: LuWallet, color: '#f6851b' }
  if (id.includes('coinbase')) return { connector, labelKey: 'wallet.kinds.coinbase', icon: CoinbaseMark, color: '#0052ff' }
  if (id === 'walletconnect') return { connector, labelKey: 'wallet.kinds.walletConnect', icon: SiWalletconnect, color: '#3b99fc' }
  if (id === 'devwallet') return { connector, labelKey: 'wallet.kinds.dev', icon: LuFlaskConical, color: '#10b981' }
  return null
}

/**
 * The dev account the dialog offers first: the one the opening screen needs (an NFT's owner),
 * else the last one used if it is the user's or the user has none, else the user's first.
 */
export function preferredDevIndex(accounts: DevAccount[] | undefined, wanted: string | null, stored: number): number {
  if (!accounts) return stored
  const needed = wanted && accounts.find((a) => a.address.toLowerCase() === wanted.toLowerCase())
  if (needed) return needed.index
  const mine = accounts.filter((a) => a.mine)
  return mine.length === 0 || mine.some((a) => a.index === stored) ? stored : mine[0].index
}

/** The wallets configured now (the loadable ones arrive after the dialog opened). */
function useConnectors(config: Config) {
  return useSyncExternalStore(
    (onChange) => watchConnectors(config, { onChange }),
    () => getConnectors(config),
  )
}

/** MetaMask (not on mobile), Coinbase, WalletConnect (when configured) and the dev wallet (local chain only). */
export function WalletDialog() {
  const { t } = useTranslation()
  const open = useWalletStore((s) => s.dialogOpen)
  const close = useWalletStore((s) => s.closeDialog)
  // The wallet libraries load as the dialog opens for the first time.
  const chain = useChain()
  const wanted = useWalletStore((s) => s.wantedAddress)
  return (
    <Dialog.Root open={open} onOpenChange={(e) => (e.open ? undefined : close())} placement="center" size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="wallet-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('wallet.dialogTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {chain ? (
                <WalletChoices key={wanted ?? ''} chain={chain} open={open} wanted={wanted} onLinked={close} />
              ) : (
                <Flex justify="center" py="6">
                  <Spinner data-testid="wallet-dialog-loading" />
                </Flex>
              )}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

function WalletChoices({ chain, open, wanted, onLinked }: { chain: ChainRuntime; open: boolean; wanted: string | null; onLinked: () => void }) {
  const { t } = useTranslation()
  const connectors = useConnectors(chain.config)
  const config = useAppConfig()
  useEffect(() => {
    if (open) chain.addWalletConnectors().catch((error) => console.error('Could not load the wallet connectors', error))
  }, [open, chain])
  const link = useLinkWallet(chain.config)
  const [pending, setPending] = useState<string | null>(null)
  const [missing, setMissing] = useState(false)
  const devOffered = config.devWallet && !!config.devMnemonic
  const devAccounts = useDevAccounts(devOffered && open).data
  const [pickedDevIndex, setPickedDevIndex] = useState<number | null>(null)
  const devIndex = pickedDevIndex ?? preferredDevIndex(devAccounts, wanted, getDevWalletIndex())
  const devAccount = devAccounts?.[devIndex]

  /** "#10 0xBcd4...4096", and whose it is once the server said. */
  const devAccountLabel = (index: number, account: DevAccount | undefined) => {
    const name = account ? `#${index} ${shortenAddress(account.address)}` : `#${index}`
    if (!account?.linkedTo) return name
    return account.mine ? t('wallet.devAccountMine', { account: name }) : t('wallet.devAccountTaken', { account: name, username: account.linkedTo.username })
  }

  const mobile = isMobileDevice()
  const choices = connectors
    .map(choiceFor)
    .filter((c): c is Choice => !!c)
    .filter((c) => !(mobile && c.connector.id.toLowerCase().includes('metamask')))

  const choose = async (choice: Choice) => {
    setMissing(false)
    setPending(choice.connector.id)
    try {
      if (choice.connector.id.toLowerCase().includes('metamask') && !(await detectInjectedWallet())) {
        setMissing(true)
        return
      }
      if (choice.connector.id === 'devWallet') {
        setDevWalletIndex(devIndex)
        // Connected with another of its accounts: connect again, with the chosen one.
        const current = getConnection(chain.config)
        if (current.status === 'connected' && current.connector?.id === 'devWallet' && current.address.toLowerCase() !== devAccount?.address.toLowerCase()) {
          await disconnect(chain.config, { connector: current.connector })
        }
      }
      const ok = await link(choice.connector)
      if (ok) onLinked()
    } finally {
      setPending(null)
    }
  }

  return (
    <Stack gap="3">
      <Text color="fg.muted" fontSize="sm">
        {t('wallet.dialogText')}
      </Text>
      {wanted ? (
        <Alert.Root status="info" borderRadius="lg" data-testid="wallet-dialog-wanted">
          <Alert.Indicator />
          <Alert.Description>
            {t('wallet.wantedAddress')}{' '}
            <Text as="span" fontFamily="mono" wordBreak="break-all">
              {checksummed(wanted)}
            </Text>
          </Alert.Description>
        </Alert.Root>
      ) : null}
      {choices.map((choice) => (
        <Box key={choice.connector.uid}>
          <Button
            w="full"
            h="14"
            justifyContent="flex-start"
            variant="outline"
            borderRadius="xl"
            disabled={!!pending}
            onClick={() => choose(choice)}
            data-testid={`wallet-option-${choice.connector.id}`}
          >
            <Flex w="9" h="9" borderRadius="lg" bg={choice.color} color="white" align="center" justify="center" mr="2">
              <Icon as={choice.icon} boxSize="5" />
            </Flex>
            <Text flex="1" textAlign="left" fontWeight="semibold">
              {t(choice.labelKey)}
            </Text>
            {pending === choice.connector.id ? <Spinner size="sm" /> : null}
          </Button>
          {choice.connector.id === 'devWallet' && devOffered ? (
            <Stack mt="2" gap="1">
              <HStack gap="2">
                <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
                  {t('wallet.devAccount')}
                </Text>
                <NativeSelect.Root size="sm">
                  <NativeSelect.Field
                    value={devIndex}
                    onChange={(e) => setPickedDevIndex(Number(e.currentTarget.value))}
                    aria-label={t('wallet.devAccount')}
                    data-testid="dev-wallet-account"
                  >
                    {Array.from({ length: DEV_WALLET_ACCOUNTS }, (_, i) => (
                      <option key={i} value={i}>
                        {devAccountLabel(i, devAccounts?.[i])}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </HStack>
              {devAccount ? (
                <Text
                  fontSize="xs"
                  color={devAccount.mine ? 'green.fg' : devAccount.linkedTo ? 'orange.fg' : 'fg.muted'}
                  data-testid="dev-wallet-account-hint"
                >
                  {devAccount.mine
                    ? t('wallet.devAccountMineHint')
                    : devAccount.linkedTo
                      ? t('wallet.devAccountTakenHint', { username: devAccount.linkedTo.username })
                      : t('wallet.devAccountFreeHint')}
                </Text>
              ) : null}
            </Stack>
          ) : null}
        </Box>
      ))}
      {missing ? (
        <Alert.Root status="warning" borderRadius="lg">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('wallet.metamaskMissing')}</Alert.Title>
            <Alert.Description>
              <Link href="https://metamask.io/download/" target="_blank" rel="noreferrer" color="brand.fg">
                {t('wallet.installMetamask')}
              </Link>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : null}
    </Stack>
  )
}
