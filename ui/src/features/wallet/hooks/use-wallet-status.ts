import { useBalance, useBlockNumber, useConnection } from 'wagmi'
import { APP_CHAIN_ID } from '@/lib/chains'
import { formatWei } from '@/lib/format'

/** Balance and block number are refreshed every 10 seconds. */
export const WALLET_POLL_MS = 10000

/** The connected wallet: address, chain, balance on the app chain (0 when unknown) and block number. */
export function useWalletStatus() {
  const { address, chainId, status, connector } = useConnection()
  const connected = status === 'connected' && !!address
  const balance = useBalance({
    address,
    chainId: APP_CHAIN_ID,
    query: { enabled: connected, refetchInterval: WALLET_POLL_MS, retry: false },
  })
  const block = useBlockNumber({
    chainId: APP_CHAIN_ID,
    query: { enabled: connected, refetchInterval: WALLET_POLL_MS, retry: false },
  })
  return {
    connected,
    address,
    chainId,
    connector,
    balance: formatWei(balance.data?.value ?? 0n),
    blockNumber: block.data,
  }
}
