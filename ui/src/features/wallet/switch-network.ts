import type { Connector } from '@wagmi/core'
import { type Chain, type EIP1193Provider, numberToHex } from 'viem'

/** The wallet's "unknown chain" error code: the chain must be added first. */
export const UNKNOWN_CHAIN_CODE = 4902

function errorCode(error: unknown): number | undefined {
  const e = error as { code?: number; data?: { originalError?: { code?: number } }; cause?: { code?: number } }
  return e?.code ?? e?.data?.originalError?.code ?? e?.cause?.code
}

/** Asks the wallet to switch to `chain`; when it does not know the chain (4902), adds it. */
export async function switchWalletChain(connector: Pick<Connector, 'getProvider'>, chain: Chain) {
  const provider = (await connector.getProvider()) as EIP1193Provider
  const chainId = numberToHex(chain.id)
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] })
  } catch (error) {
    if (errorCode(error) !== UNKNOWN_CHAIN_CODE) throw error
    await provider.request({
      method: 'wallet_addEthereumChain',
      params: [
        {
          chainId,
          chainName: chain.name,
          nativeCurrency: chain.nativeCurrency,
          rpcUrls: [...chain.rpcUrls.default.http],
          blockExplorerUrls: chain.blockExplorers ? [chain.blockExplorers.default.url] : undefined,
        },
      ],
    })
  }
}
