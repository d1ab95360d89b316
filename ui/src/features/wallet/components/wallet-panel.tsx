import { Button, HStack, NativeSelect, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuCopy, LuLogOut, LuWallet } from 'react-icons/lu'
import { notify } from '@/components/ui/toaster'
import { NETWORK_CHOICES, RECOGNISED_CHAINS } from '@/lib/chains'
import { shortenAddress } from '@/lib/format'
import { loadChain } from '@/lib/wallet-connection'
import { useWalletStatus } from '../hooks/use-wallet-status'
import { useOpenWalletDialog, useWalletMenuActions } from './wallet-button'
import { ExactBalance, WalletBalance } from './wallet-balance'

/** The drawer's wallet information: address, balance, block, network chooser (1, 137, 80001). */
export function WalletPanel() {
  const { t } = useTranslation()
  const { connected, address, balanceWei, blockNumber, chainId } = useWalletStatus()
  const openDialog = useOpenWalletDialog()
  const actions = useWalletMenuActions()

  if (!connected || !address) {
    return (
      <Button variant="outline" onClick={openDialog} data-testid="wallet-panel-connect">
        <LuWallet /> {t('wallet.connect')}
      </Button>
    )
  }

  const chooseNetwork = async (id: number) => {
    try {
      await (await loadChain()).switchNetwork(id)
    } catch (error) {
      console.error('Switching network failed', error)
      notify('error', t('wallet.switchFailed'))
    }
  }

  const known = chainId !== undefined && NETWORK_CHOICES.some((c) => c.chainId === chainId)
  return (
    <Stack gap="3" bg="bg.subtle" borderRadius="xl" p="4" borderWidth="1px" data-testid="wallet-panel">
      <HStack justify="space-between">
        <Text fontSize="sm" color="fg.muted">
          {t('wallet.address')}
        </Text>
        <Button size="xs" variant="ghost" onClick={actions.copy} aria-label={t('wallet.copyAddress')}>
          <Text fontFamily="mono">{shortenAddress(address)}</Text>
          <LuCopy />
        </Button>
      </HStack>
      <Stack gap="0.5">
        <HStack justify="space-between">
          <Text fontSize="sm" color="fg.muted">
            {t('wallet.balance')}
          </Text>
          <WalletBalance wei={balanceWei} fontWeight="semibold" />
        </HStack>
        <ExactBalance wei={balanceWei} textAlign="right" />
      </Stack>
      <HStack justify="space-between">
        <Text fontSize="sm" color="fg.muted">
          {t('wallet.block')}
        </Text>
        <Text fontFamily="mono" fontSize="sm">
          {blockNumber !== undefined ? blockNumber.toString() : '—'}
        </Text>
      </HStack>
      <Stack gap="1">
        <Text fontSize="sm" color="fg.muted">
          {t('wallet.network')}
        </Text>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            value={known ? String(chainId) : ''}
            onChange={(e) => void chooseNetwork(Number(e.currentTarget.value))}
            aria-label={t('wallet.network')}
          >
            {!known ? <option value="">{chainId !== undefined ? (RECOGNISED_CHAINS[chainId] ?? t('wallet.unknownNetwork')) : t('wallet.unknownNetwork')}</option> : null}
            {NETWORK_CHOICES.map((choice) => (
              <option key={choice.chainId} value={choice.chainId}>
                {t(choice.labelKey)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Stack>
      <Button size="sm" variant="ghost" onClick={actions.disconnect}>
        <LuLogOut /> {t('wallet.disconnect')}
      </Button>
    </Stack>
  )
}
