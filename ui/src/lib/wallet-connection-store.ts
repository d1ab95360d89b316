/**
 * The wallet's connection as the shell sees it (see `wallet-connection.ts`): written by the chain
 * runtime once it is loaded, read by the shell before and after.
 */
import { create } from 'zustand'
import { useShallow } from 'zustand/react/shallow'
import { useWalletStore } from './wallet-store'

export type ConnectionStatus = 'connected' | 'connecting' | 'reconnecting' | 'disconnected'

export type WalletConnection = {
  status: ConnectionStatus
  address: `0x${string}` | undefined
  chainId: number | undefined
  /** The connector's id (wagmi's), e.g. 'metaMaskSDK', 'devWallet'. */
  connectorId: string | undefined
  /** The balance on the app chain in wei, refreshed every WALLET_POLL_MS while connected. */
  balanceWei: bigint | undefined
  blockNumber: bigint | undefined
}

/** What the shell assumes before the chain runtime has said anything. */
export function assumedConnection(): WalletConnection {
  return {
    status: useWalletStore.getState().connectorId ? 'reconnecting' : 'disconnected',
    address: undefined,
    chainId: undefined,
    connectorId: undefined,
    balanceWei: undefined,
    blockNumber: undefined,
  }
}

export const useWalletConnection = create<WalletConnection>()(() => assumedConnection())

/** The connection without the polled balance and block (those change every 10 seconds). */
export function useConnectionState() {
  return useWalletConnection(useShallow(({ status, address, chainId, connectorId }) => ({ status, address, chainId, connectorId })))
}
