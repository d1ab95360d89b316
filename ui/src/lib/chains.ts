/** The chain the product runs on: buying, bidding, creating and linking need it. */
export const APP_CHAIN_ID = 80001

/** Chain ids the wallet UI recognises, with their display names. */
export const RECOGNISED_CHAINS: Record<number, string> = {
  1: 'Ethereum',
  3: 'Ropsten',
  4: 'Rinkeby',
  5: 'Goerli',
  42: 'Kovan',
  137: 'Polygon',
  80001: 'Matic Testnet',
  524289: 'Testnet 524289',
}

/** The network chooser of the mobile drawer offers these (labels are translation keys). */
export const NETWORK_CHOICES = [
  { chainId: 1, labelKey: 'wallet.networks.ethereum' },
  { chainId: 137, labelKey: 'wallet.networks.polygon' },
  { chainId: 80001, labelKey: 'wallet.networks.testnet' },
] as const

export function isRecognisedChain(chainId: number | undefined): boolean {
  return chainId !== undefined && chainId in RECOGNISED_CHAINS
}
