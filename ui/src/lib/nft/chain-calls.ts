/**
 * The wallet side of a trade (see trade.ts): simulate, send, wait for the confirmations. Loaded
 * with the chain runtime when a trade runs, so the screens that offer trades do not carry viem.
 */
import type { TFunction } from 'i18next'
import { BaseError, ContractFunctionRevertedError, type Hash, InsufficientFundsError, UserRejectedRequestError } from 'viem'
import type { Config } from '@wagmi/core'
import { simulateContract, waitForTransactionReceipt, writeContract } from '@wagmi/core/actions'
import { APP_CHAIN_ID } from '@/lib/chains'
import { contractErrorText } from '@/lib/contract/errors'
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
    | 'holdSale'
    | 'releaseSale'
  args: readonly unknown[]
  value?: bigint
}

/** Simulates the call (a revert fails here, before the wallet is asked), sends it (`onSent` hears its hash) and waits for 1 confirmation. */
export async function sendContractCall(
  config: Config,
  { contractAddress, call, account, onSent }: { contractAddress: string; call: ContractCall; account: `0x${string}` | undefined; onSent?: (hash: Hash) => void },
) {
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
  onSent?.(hash)
  const receipt = await waitForTransactionReceipt(config, { hash, confirmations: CONFIRMATIONS, chainId: APP_CHAIN_ID })
  return { hash, receipt }
}

/** What a failed chain call tells the user: a sentence in their language, and the raw detail when the sentence is the generic one. */
export type ChainErrorMessage = { text: string; detail?: string }

/**
 * The message of a chain error: the contract's custom errors as their sentence (amounts in
 * MATIC), a cancelled signature or missing funds as such; anything else the generic sentence with
 * what the wallet or node said as its detail.
 */
export function chainErrorMessage(error: unknown, t: TFunction, lng?: string): ChainErrorMessage {
  if (error instanceof BaseError) {
    if (error.walk((e) => e instanceof UserRejectedRequestError)) return { text: t('contractErrors.rejected') }
    if (error.walk((e) => e instanceof InsufficientFundsError)) return { text: t('contractErrors.insufficientFunds') }
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null
    const data = reverted?.data
    if (data?.errorName && data.abiItem && data.abiItem.type === 'error') {
      const args: Record<string, unknown> = {}
      data.abiItem.inputs.forEach((input, i) => {
        if (input.name) args[input.name] = data.args?.[i]
      })
      const text = contractErrorText(t, { name: data.errorName, args }, lng)
      if (text) return { text }
    }
    const raw = data?.errorName ? `${data.errorName}(${(data.args ?? []).map(String).join(', ')})` : reverted?.reason || error.shortMessage || error.message
    return { text: t('contractErrors.unknown'), detail: raw }
  }
  const raw = error && typeof error === 'object' && 'message' in error ? String((error as { message: unknown }).message) : String(error)
  return { text: t('contractErrors.unknown'), detail: raw }
}
