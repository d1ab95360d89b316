import { Badge, Box, Button, HStack, Menu, Portal, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuCopy, LuLink2Off, LuLogOut, LuTriangleAlert, LuWallet } from 'react-icons/lu'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import { shortenAddress } from '@/lib/format'
import { currentPath, navigateTo, signInPath } from '@/lib/navigation'
import { loadChain } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'
import { disconnectWallet } from '../api/disconnect-wallet'
import { useWalletActions } from '../hooks/use-wallet-actions'
import { useWalletStatus } from '../hooks/use-wallet-status'
import { ExactBalance, WalletBalance } from './wallet-balance'

/** Opens the wallet dialog; a visitor is sent to sign-in first (callback = current path). */
export function useOpenWalletDialog() {
  const token = useSession((s) => s.token)
  const open = useWalletStore((s) => s.openDialog)
  return () => (token ? open() : navigateTo(signInPath(currentPath())))
}

/** Disconnects the wallet (the chain runtime is loaded whenever a wallet is connected). */
const disconnectChain = () =>
  loadChain()
    .then((chain) => chain.disconnect())
    .catch(() => undefined)

export function useWalletMenuActions() {
  const { t } = useTranslation()
  const clearWallet = useWalletStore((s) => s.clearWallet)
  const { address } = useWalletStatus()
  return {
    copy: async () => {
      if (!address) return
      await navigator.clipboard?.writeText(address).catch(() => undefined)
      notify('success', t('wallet.copied'))
    },
    disconnect: async () => {
      await disconnectChain()
      clearWallet()
    },
    unlink: async () => {
      if (!address) return
      try {
        const { message } = await disconnectWallet(address)
        notify('success', message || t('wallet.unlinked'))
        await disconnectChain()
        clearWallet()
      } catch (error) {
        notify('error', errorMessage(error, t('common.genericError')))
      }
    },
  }
}

/** Top bar: 'Connect wallet', or the short address and balance with a menu (copy, disconnect, unlink). */
export function WalletButton() {
  const { t } = useTranslation()
  const openDialog = useOpenWalletDialog()
  const { connected, address, balanceWei } = useWalletStatus()
  const { tampered } = useWalletActions()
  const actions = useWalletMenuActions()

  if (!connected || !address) {
    return (
      <Button size="sm" variant="outline" borderRadius="full" maxW={{ lg: '40', xl: '56' }} onClick={openDialog} data-testid="connect-wallet" aria-label={t('wallet.connect')} title={t('wallet.connect')}>
        <LuWallet />
        {/* A long label (French, Tamil) ends in an ellipsis rather than push the avatar out. */}
        <Text as="span" hideBelow="lg" truncate minW="0">
          {t('wallet.connect')}
        </Text>
      </Button>
    )
  }
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button size="sm" variant="outline" borderRadius="full" data-testid="wallet-menu">
          {tampered ? <LuTriangleAlert color="orange" /> : <LuWallet />}
          <WalletBalance wei={balanceWei} fontWeight="semibold" hideBelow="lg" />
          <Badge variant="subtle" colorPalette="brand" borderRadius="full">
            {shortenAddress(address)}
          </Badge>
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="64">
            <Box px="3" py="2">
              <Stack gap="0.5">
                <Text fontSize="xs" color="fg.muted">
                  {t('wallet.address')}
                </Text>
                <Text fontFamily="mono" fontSize="sm">
                  {shortenAddress(address)}
                </Text>
              </Stack>
              <Stack gap="0.5" mt="2">
                <Text fontSize="xs" color="fg.muted">
                  {t('wallet.balance')}
                </Text>
                <WalletBalance wei={balanceWei} fontSize="sm" fontWeight="semibold" />
                <ExactBalance wei={balanceWei} />
              </Stack>
              {tampered ? (
                <HStack mt="2" color="orange.fg" fontSize="xs" gap="1">
                  <LuTriangleAlert />
                  <Text>{t('wallet.tampered')}</Text>
                </HStack>
              ) : null}
            </Box>
            <Menu.Separator />
            <Menu.Item value="copy" onSelect={actions.copy}>
              <LuCopy /> {t('wallet.copyAddress')}
            </Menu.Item>
            <Menu.Item value="unlink" onSelect={actions.unlink} disabled={tampered}>
              <LuLink2Off /> {t('wallet.unlink')}
            </Menu.Item>
            <Menu.Item value="disconnect" onSelect={actions.disconnect}>
              <LuLogOut /> {t('wallet.disconnect')}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}
