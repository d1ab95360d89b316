/**
 * NFT pieces shared by every screen that lists NFTs (browse, collections, profile tabs,
 * favourites): the card with its owner menu and dialogs, the grid with skeletons and infinite
 * scroll, the price and person chips. Data, fetchers and trade plumbing are in `@/lib/nft`.
 */
export { AddToCollectionDialog } from './add-to-collection-dialog'
export { ConfirmDialog } from './confirm-dialog'
export { NftCard, nftPath } from './nft-card'
export { CARD_SKELETONS, NftGrid } from './nft-grid'
export { PersonChip } from './person-chip'
export { Price } from './price'
