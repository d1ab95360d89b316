import { Alert, Button, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuWallet } from 'react-icons/lu'
import { checksummed } from '@/lib/address'
import { loadChain, useConnectionState } from '@/lib/wallet-connection'
import { useWalletStore } from '@/lib/wallet-store'

/**
 * Tells the owner of an NFT, before any form, which wallet its owner actions need when the
 * connected one is another (or none is): the address, and a button that disconnects the other
 * wallet and opens the wallet dialog with that address offered first.
 */
export function OwnerWalletNotice({ ownerAddress }: { ownerAddress: string }) {
  const { t } = useTranslation()
  const { status, address } = useConnectionState()
  const openDialog = useWalletStore((s) => s.openDialog)
  const clearWallet = useWalletStore((s) => s.clearWallet)
  const connected = status === 'connected' && !!address
  if (!ownerAddress || (connected && address.toLowerCase() === ownerAddress.toLowerCase())) return null
  // While a remembered wallet reconnects, wait rather than flash the notice.
  if (status === 'reconnecting' || status === 'connecting') return null

  const connectOwner = async () => {
    if (connected) {
      await loadChain()
        .then((chain) => chain.disconnect())
        .catch(() => undefined)
      clearWallet()
    }
    openDialog(ownerAddress)
  }
  return (
    <Alert.Root status="warning" borderRadius="lg" data-testid="owner-wallet-notice">
      <Alert.Indicator />
      <Stack gap="2" flex="1" minW="0">
        <Alert.Description>
          {t('wallet.ownerWalletNeeded')}{' '}
          <Text as="span" display="block" fontFamily="mono" wordBreak="break-all" data-testid="owner-wallet-address">
            {checksummed(ownerAddress)}
          </Text>
        </Alert.Description>
        <Button size="sm" variant="outline" alignSelf="start" onClick={() => void connectOwner()} data-testid="owner-wallet-connect">
          <LuWallet /> {connected ? t('wallet.switchWallet') : t('wallet.connect')}
        </Button>
      </Stack>
    </Alert.Root>
  )
}
