import type { Address } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { APP_CHAIN_ID } from '@/lib/chains'

export const SIWE_STATEMENT = 'Link this wallet to your marketplace account.'

/** The EIP-4361 message the wallet signs to prove it belongs to the signed-in user. */
export function buildLinkMessage({ address, nonce, now = new Date() }: { address: Address; nonce: string; now?: Date }) {
  return createSiweMessage({
    domain: window.location.host,
    uri: window.location.origin,
    address,
    chainId: APP_CHAIN_ID,
    nonce,
    statement: SIWE_STATEMENT,
    version: '1',
    issuedAt: now,
  })
}
