import { useTranslation } from 'react-i18next'
import type { Config, Connector } from '@wagmi/core'
import { connect, disconnect, getConnection, signMessage } from '@wagmi/core/actions'
import type { Address } from 'viem'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import { useWalletStore } from '@/lib/wallet-store'
import { connectWallet } from '../api/connect-wallet'
import { fetchWalletNonce } from '@/lib/wallet-nonce'
import { buildLinkMessage } from '@/lib/siwe'
import { walletTypeOf } from '../wallet-kinds'

/**
 * Connects a wallet and links it to the account: a wallet already linked to the profile is simply
 * remembered; otherwise the server's nonce goes into a SIWE message that the wallet signs, and
 * PUT /api/account/connectwallet must accept it ('Connected!'). A failure shows the server message
 * and disconnects the wallet (type back to none).
 */
export function useLinkWallet(config: Config) {
  const { t } = useTranslation()

  return async (connector: Connector): Promise<boolean> => {
    const { setWallet, clearWallet } = useWalletStore.getState()
    const walletType = walletTypeOf(connector)
    let address: Address | undefined
    try {
      const current = getConnection(config)
      if (current.status === 'connected' && current.connector?.id === connector.id) address = current.address
      else address = (await connect(config, { connector })).accounts[0]
    } catch (error) {
      console.error('Wallet connection failed', error)
      notify('error', (error as { shortMessage?: string })?.shortMessage ?? t('wallet.connectFailed'))
      return false
    }
    if (!address) return false

    const profile = useSession.getState().user
    const alreadyLinked = profile?.connectedWallet?.some(
      (w) => w.walletProvider === walletType && w.walletAddress.toLowerCase() === address.toLowerCase(),
    )
    if (alreadyLinked) {
      setWallet({ walletType, walletAddress: address, connectorId: connector.id })
      notify('success', t('wallet.connected'))
      return true
    }

    try {
      const nonce = await fetchWalletNonce()
      const message = buildLinkMessage({ address, nonce })
      const signature = await signMessage(config, { message, account: address, connector })
      const { message: serverMessage } = await connectWallet({ walletProvider: walletType, walletAddress: address, message, signature })
      setWallet({ walletType, walletAddress: address, connectorId: connector.id })
      notify('success', serverMessage || t('wallet.connected'))
      return true
    } catch (error) {
      console.error('Wallet link failed', error)
      notify('error', errorMessage(error, t('wallet.linkFailed')))
      await disconnect(config, { connector }).catch(() => undefined)
      clearWallet()
      return false
    }
  }
}
