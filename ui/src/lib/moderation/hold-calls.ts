/**
 * The chain reads a stolen-item hold needs (loaded with the chain runtime, like chain-calls.ts):
 * whether an account is a moderator of the contract, the chain's own clock, and the evidence's
 * fingerprint.
 */
import type { Config } from '@wagmi/core'
import { getBlock, readContract } from '@wagmi/core/actions'
import { keccak256, stringToBytes, zeroHash } from 'viem'
import { APP_CHAIN_ID } from '@/lib/chains'
import { marketplaceAbi } from '@/lib/contract/marketplace-abi'

/** Whether `account` holds the contract's moderator role (`setModerator` by its admin). */
export function isContractModerator(config: Config, contractAddress: string, account: `0x${string}`) {
  return readContract(config, {
    address: contractAddress as `0x${string}`,
    abi: marketplaceAbi,
    functionName: 'isModerator',
    args: [account],
    chainId: APP_CHAIN_ID,
  }) as Promise<boolean>
}

/**
 * The latest block's time (unix seconds): the contract measures a hold's limits from the time of
 * the block that takes the transaction, never earlier than this, so an end counted from it stays
 * within them wherever the chain's clock stands (a dev chain moved forward, a validator's clock
 * a little behind the browser's).
 */
export async function chainTime(config: Config): Promise<number> {
  const block = await getBlock(config, { chainId: APP_CHAIN_ID, blockTag: 'latest' })
  return Number(block.timestamp)
}

/** The note of evidence as the contract keeps it: the hash of its text (zero without one). */
export function evidenceHash(note: string): `0x${string}` {
  const text = note.trim()
  return text ? keccak256(stringToBytes(text)) : zeroHash
}
