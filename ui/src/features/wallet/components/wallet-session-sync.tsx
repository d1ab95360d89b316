import { useEffect } from 'react'
import { onSessionCleared } from '@/lib/auth'
import { requestedChain } from '@/lib/wallet-connection'

/**
 * Disconnects the wallet whenever the session ends (logout, 401/410). Renders nothing. Without
 * the chain runtime there is no connection to end (a remembered wallet starts it at once).
 */
export function WalletSessionSync() {
  useEffect(
    () =>
      onSessionCleared(() => {
        requestedChain()
          ?.then((chain) => chain.disconnect())
          .catch(() => undefined)
      }),
    [],
  )
  return null
}
