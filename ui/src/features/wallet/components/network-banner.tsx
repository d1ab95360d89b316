import { Box, Button, Flex, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { notify } from '@/components/ui/toaster'
import { APP_CHAIN_ID } from '@/lib/chains'
import { loadChain, useConnectionState } from '@/lib/wallet-connection'

/** Shown while the wallet is on a chain other than 80001; 'Click here' switches (adding the chain on 4902). */
export function NetworkBanner() {
  const { t } = useTranslation()
  const { status, chainId } = useConnectionState()
  if (status !== 'connected' || chainId === APP_CHAIN_ID) return null
  const switchNow = async () => {
    try {
      await (await loadChain()).switchNetwork(APP_CHAIN_ID)
    } catch (error) {
      console.error('Switching network failed', error)
      notify('error', t('wallet.switchFailed'))
    }
  }
  return (
    <Box bg="orange.500" color="white" px="4" py="2" data-testid="network-banner">
      <Flex maxW="7xl" mx="auto" align="center" justify="center" gap="2" wrap="wrap" textAlign="center" fontSize="sm" fontWeight="medium">
        <Text>{t('wallet.wrongNetwork')}</Text>
        <Button size="xs" variant="plain" color="white" textDecoration="underline" fontWeight="bold" onClick={switchNow} p="0" h="auto">
          {t('wallet.clickHere')}
        </Button>
      </Flex>
    </Box>
  )
}
