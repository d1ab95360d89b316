import { formatUnits, getAddress, isAddress } from 'viem'

/** MATIC has 18 decimals; amounts are shown with 3 decimals by default. */
export const NATIVE_DECIMALS = 18
export const DEFAULT_DISPLAY_DECIMALS = 3
/** Longer amounts are shown as an ellipsis plus their last 2 characters (full value in a tooltip). */
export const MAX_AMOUNT_CHARS = 6

/** Formats a number (or numeric string) with a fixed number of decimals, 3 by default. */
export function formatAmount(value: number | string | null | undefined, decimals = DEFAULT_DISPLAY_DECIMALS): string {
  const n = typeof value === 'string' ? Number(value) : value
  if (n === null || n === undefined || !Number.isFinite(n)) return (0).toFixed(decimals)
  return n.toFixed(decimals)
}

/** Formats a wei amount (bigint) as MATIC with 3 decimals. */
export function formatWei(value: bigint | null | undefined, decimals = DEFAULT_DISPLAY_DECIMALS): string {
  return formatAmount(Number(formatUnits(value ?? 0n, NATIVE_DECIMALS)), decimals)
}

/**
 * Shortens a displayed amount: more than 6 characters become '...' plus the last 2 characters.
 * `truncated` tells the caller to show the full value in a tooltip.
 */
export function shortAmount(text: string): { text: string; truncated: boolean } {
  if (text.length <= MAX_AMOUNT_CHARS) return { text, truncated: false }
  return { text: `...${text.slice(-2)}`, truncated: true }
}

/** Addresses are shortened to their first 6 and last 4 characters. */
export function shortenAddress(address: string | null | undefined): string {
  if (!address) return ''
  if (address.length <= 10) return address
  return `${address.slice(0, 6)}...${address.slice(-4)}`
}

/** Cuts a text at `max` characters and adds an ellipsis when it was longer. */
export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? ''
  return value.length > max ? `${value.slice(0, max)}...` : value
}

/** An address in its EIP-55 form, as wallets show it (the text as it is when it is not an address). */
export function checksummed(address: string): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address
}
