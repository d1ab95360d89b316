/**
 * The transactions this tab sent (a few minutes' worth): the trade plumbing says how they went,
 * so the live notices they cause for the sender ("You bought ...", once per NFT of a cart) would
 * only repeat it. The bell still counts them.
 */
const KEEP_MS = 10 * 60_000
const sent = new Map<string, number>()

/** Notes a transaction this tab sent. */
export function rememberOwnTransaction(hash: string) {
  const now = Date.now()
  for (const [h, at] of sent) if (now - at > KEEP_MS) sent.delete(h)
  sent.set(hash.toLowerCase(), now)
}

/** Whether this tab sent `hash` (in the last ten minutes). */
export function isOwnTransaction(hash: string | null | undefined): boolean {
  const at = hash ? sent.get(hash.toLowerCase()) : undefined
  return at !== undefined && Date.now() - at <= KEEP_MS
}
