import type { UserProfile } from '@/lib/auth'
import type { Nft, Paged } from '@/lib/nft/types'

export const OWNER_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
export const BUYER_ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

/** An NFT in the API's shape; `overrides` change any field. */
export function nftFixture(overrides: Partial<Nft> = {}): Nft {
  return {
    _id: '80001-1',
    nftTokenId: '1',
    file: '/ipfs/bafyimage',
    title: 'Sunset over the harbour',
    description: 'A painting.',
    nftCategory: 'art',
    metadataUrl: '/ipfs/bafymeta',
    fixedPrice: '1.5',
    fixedPriceWei: '1500000000000000000',
    formOfSale: 'FIXEDPRICE',
    contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    contractType: 'ERC721',
    coinName: 'MATIC',
    totalLikes: 3,
    isLiked: false,
    isBookmarked: false,
    createdAt: new Date(Date.now() - 2 * 3600 * 1000).toISOString(),
    updatedAt: new Date().toISOString(),
    currentAuction: null,
    highestBid: '0',
    royalty: [
      { walletAddress: OWNER_ADDRESS, percentage: 2.5 },
      { walletAddress: BUYER_ADDRESS, percentage: 5 },
    ],
    properties: [{ key: 'Color', value: 'Pink' }],
    transactionHash: '0xabc',
    creator: { userId: 'u-owner', username: 'alice_the_artist', fullName: 'Alice Artist', avatar: '', address: OWNER_ADDRESS },
    currentOwner: { userId: 'u-owner', username: 'alice_the_artist', fullName: 'Alice Artist', avatar: '', ownerAddress: OWNER_ADDRESS },
    ...overrides,
  }
}

/** A live auction ending `endsInMs` from now. */
export function auctionFixture(endsInMs = 3_600_000, overrides: Partial<Nft> = {}): Nft {
  return nftFixture({
    formOfSale: 'AUCTION',
    fixedPrice: '5',
    fixedPriceWei: '5000000000000000000',
    highestBid: '1.2',
    currentAuction: {
      auctionId: '7',
      auctionStartPrice: '1',
      auctionBuyNowPrice: '5',
      auctionHighestBid: '1.2',
      auctionEndHours: new Date(Date.now() + endsInMs).toISOString(),
      auctionEnded: endsInMs <= 0,
    },
    ...overrides,
  })
}

export function page<T>(data: T[], currentPage = 1, lastPage = true): Paged<T> {
  return { data, count: data.length, totalItems: data.length, currentPage, lastPage, currentItemCount: data.length }
}

export function profileFixture(overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    userId: 'u-owner',
    email: 'alice@example.com',
    username: 'alice_the_artist',
    fullName: 'Alice Artist',
    mobileNumber: '',
    avatar: '',
    bio: '',
    coverImage: '',
    authProvider: 'EMAIL',
    connectedWallet: [{ walletProvider: 'Other', walletAddress: OWNER_ADDRESS }],
    ...overrides,
  }
}
