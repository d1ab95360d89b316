import { useConnectionState, useWalletConnection } from '@/lib/wallet-connection'

/** The connected wallet: address, chain, balance on the app chain in wei (0 when unknown) and block number (polled by the chain runtime). */
export function useWalletStatus() {
  const { address, chainId, status } = useConnectionState()
  const balanceWei = useWalletConnection((s) => s.balanceWei)
  const blockNumber = useWalletConnection((s) => s.blockNumber)
  return {
    connected: status === 'connected' && !!address,
    address,
    chainId,
    balanceWei: balanceWei ?? 0n,
    blockNumber,
  }
}
