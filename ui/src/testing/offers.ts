import type { Offer } from '@/lib/offers/api'
import { BUYER_ADDRESS } from './nft'

/** An offer in the API's shape (bob's 0.3 MATIC on 80001-1, active for a day); `overrides` change any field. */
export function offerFixture(overrides: Partial<Offer> = {}): Offer {
  return {
    id: 1,
    nftId: '80001-1',
    offererAddress: BUYER_ADDRESS.toLowerCase(),
    offererUserId: 'u-bob',
    offererUsername: 'bob',
    amount: '0.3',
    amountWei: '300000000000000000',
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    expiresAtUnix: Math.floor((Date.now() + 86_400_000) / 1000),
    feeBps: 500,
    state: 'ACTIVE',
    replaced: 0,
    nftBurned: false,
    acceptable: true,
    withdrawable: true,
    seller: null,
    transactionHash: `0x${'cd'.repeat(32)}`,
    createdAt: new Date(Date.now() - 3_600_000).toISOString(),
    updatedAt: new Date(Date.now() - 3_600_000).toISOString(),
    closedAt: null,
    ...overrides,
  }
}
