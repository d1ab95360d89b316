/**
 * The wallet side of a trade (see trade.ts): simulate, send, wait for the confirmations. Loaded
 * with the chain runtime when a trade runs, so the screens that offer trades do not carry viem.
 */
import { BaseError, type Hash } from 'viem'
import type { Config } from 'wagmi'
import { simulateContract, waitForTransactionReceipt, writeContract } from 'wagmi/actions'
import { APP_CHAIN_ID } from '@/lib/chains'
import { marketplaceAbi } from '@/lib/contract/marketplace-abi'

/** Confirmations awaited before the record call. */
export const CONFIRMATIONS = 1

/** A contract write: the function, its arguments and the value sent. */
export type ContractCall = {
  functionName:
    | 'buyToken'
    | 'bid'
    | 'acceptOffer'
    | 'toggleForSale'
    | 'burn'
    | 'mint'
    | 'changeTokenPrice'
    | 'makeOffer'
    | 'cancelOffer'
    | 'acceptOfferFrom'
    | 'rejectOfferFrom'
    | 'buyTokens'
  args: readonly unknown[]
  value?: bigint
}

/** Simulates the call (a revert fails here, before the wallet is asked), sends it and waits for 1 confirmation. */
export async function sendContractCall(config: Config, { contractAddress, call, account }: { contractAddress: string; call: ContractCall; account: `0x${string}` | undefined }) {
  const { request } = await simulateContract(config, {
    address: contractAddress as `0x${string}`,
    abi: marketplaceAbi,
    functionName: call.functionName,
    args: call.args,
    value: call.value,
    account,
    chainId: APP_CHAIN_ID,
  } as Parameters<typeof simulateContract>[1])
  const hash: Hash = await writeContract(config, request as Parameters<typeof writeContract>[1])
  const receipt = await waitForTransactionReceipt(config, { hash, confirmations: CONFIRMATIONS, chainId: APP_CHAIN_ID })
  return { hash, receipt }
}

/** The message of a chain error as the wallet or node gave it (its data message when there is one). */
export function chainErrorMessage(error: unknown): string {
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof BaseError && 'data' in e && !!(e as { data?: { errorName?: string } }).data?.errorName) as
      | (BaseError & { data?: { errorName?: string; args?: readonly unknown[] } })
      | null
    if (reverted?.data?.errorName) {
      const args = (reverted.data.args ?? []).map(String).join(', ')
      return `${reverted.data.errorName}(${args})`
    }
    return error.shortMessage || error.message
  }
  if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message)
  return String(error)
}
