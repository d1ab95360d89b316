import { getAddress, isAddress } from 'viem'

/**
 * An address in its EIP-55 form, as wallets show it (the text as it is when it is not an
 * address). Apart from `format.ts`: the checksum needs keccak, which only the screens that name
 * a wallet to use download, not every first visit.
 */
export function checksummed(address: string): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address
}
