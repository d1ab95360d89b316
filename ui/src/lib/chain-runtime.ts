/**
 * The chain runtime: wagmi's configuration and everything that talks to the wallet or the chain.
 * Loaded on demand through `loadChain` (wallet-connection.ts), never by the shell itself: a first
 * visit downloads neither wagmi nor viem. It mirrors wagmi's connection into
 * `useWalletConnection` and polls the connected wallet's balance and the block number.
 */
import type { Config } from '@wagmi/core'
import { disconnect, getBalance, getBlockNumber, getConnection, readContract, reconnect, signMessage, watchConnection } from '@wagmi/core/actions'
import type { AppConfig } from './app-config'
import { APP_CHAIN_ID } from './chains'
import { marketplaceAbi } from './contract/marketplace-abi'
import { addWalletConnectors, createWagmiConfig, loadWalletConnectors } from './wagmi'
import { useWalletConnection } from './wallet-connection-store'
import { useWalletStore } from './wallet-store'
import { switchWalletChain } from '@/features/wallet/switch-network'

/** Balance and block number are refreshed every 10 seconds while a wallet is connected. */
export const WALLET_POLL_MS = 10000

export type ChainRuntime = ReturnType<typeof runtimeFor>

/**
 * Builds the wallet configuration (with every wallet's code when a wallet is remembered, else
 * with only what needs none: the wallet dialog adds the rest), reconnects the remembered wallet
 * and from then on keeps `useWalletConnection` in step.
 */
export async function startChainRuntime(appConfig: AppConfig) {
  const remembered = !!useWalletStore.getState().connectorId
  const connectors = remembered ? await loadWalletConnectors(appConfig).catch(() => []) : []
  const config = createWagmiConfig(appConfig, connectors)
  await reconnect(config).catch((error) => console.error('Reconnecting the wallet failed', error))
  const stopMirroring = mirrorConnection(config)
  return runtimeFor(config, appConfig, stopMirroring)
}

function runtimeFor(config: Config, appConfig: AppConfig, stop: () => void) {
  return {
    config,
    /** Stops updating `useWalletConnection` (a runtime for another configuration takes over). */
    stop,
    /** Adds the wallets that need code of their own (Coinbase, WalletConnect, dev wallet), once. */
    addWalletConnectors: () => addWalletConnectors(config, appConfig),
    disconnect: () => disconnect(config).then(() => undefined),
    /** Has the connected wallet sign `message` as `account` (EIP-191 personal_sign). */
    signMessage: (message: string, account: `0x${string}`) => signMessage(config, { message, account }),
    /** Asks the connected wallet to switch to one of the configured chains (adding it when unknown). */
    switchNetwork: async (chainId: number) => {
      const chain = config.chains.find((c) => c.id === chainId)
      const { connector } = getConnection(config)
      if (!chain || !connector) return
      await switchWalletChain(connector, chain)
    },
    /** The smallest bid the contract accepts now for a token (wei). */
    minimumBid: (contractAddress: string, tokenId: bigint) =>
      readContract(config, {
        address: contractAddress as `0x${string}`,
        abi: marketplaceAbi,
        functionName: 'minimumBid',
        args: [tokenId],
        chainId: APP_CHAIN_ID,
      }) as Promise<bigint>,
  }
}

/** Copies wagmi's connection into `useWalletConnection`, with the balance and block polled while connected. */
function mirrorConnection(config: Config) {
  let poll: { address: string; timer: ReturnType<typeof setInterval> } | null = null
  const stopPolling = () => {
    if (poll) clearInterval(poll.timer)
    poll = null
  }
  const refresh = (address: `0x${string}`) => {
    getBalance(config, { address, chainId: APP_CHAIN_ID })
      .then((balance) => poll?.address === address && useWalletConnection.setState({ balanceWei: balance.value }))
      .catch(() => undefined)
    getBlockNumber(config, { chainId: APP_CHAIN_ID, cacheTime: 0 })
      .then((blockNumber) => poll?.address === address && useWalletConnection.setState({ blockNumber }))
      .catch(() => undefined)
  }
  const apply = (connection: ReturnType<typeof getConnection>) => {
    const connected = connection.status === 'connected' && !!connection.address
    useWalletConnection.setState({
      status: connection.status,
      address: connection.address,
      chainId: connection.chainId,
      connectorId: connection.connector?.id,
    })
    if (!connected || poll?.address !== connection.address) {
      stopPolling()
      useWalletConnection.setState({ balanceWei: undefined, blockNumber: undefined })
    }
    if (connected && !poll) {
      const address = connection.address!
      poll = { address, timer: setInterval(() => refresh(address), WALLET_POLL_MS) }
      refresh(address)
    }
  }
  apply(getConnection(config))
  const unwatch = watchConnection(config, { onChange: apply })
  return () => {
    unwatch()
    stopPolling()
  }
}
