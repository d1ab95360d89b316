/**
 * NFT pieces shared by every screen that lists NFTs (browse, collections, profile tabs,
 * favourites): the card with its owner menu, the grid with skeletons and infinite scroll, the
 * price and person chips. Data, fetchers and trade plumbing are in `@/lib/nft`. The card's
 * dialogs are not exported here: a re-export would bring the dialog code to every screen with a
 * card, where the card loads them only when an owner opens one (import them from their files).
 */
export { NftCard, nftPath } from './nft-card'
export { CARD_SKELETONS, NftGrid } from './nft-grid'
export { PersonChip } from './person-chip'
export { Price } from './price'
