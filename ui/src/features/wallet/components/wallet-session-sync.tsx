import { useEffect } from 'react'
import { useConfig } from 'wagmi'
import { disconnect } from 'wagmi/actions'
import { onSessionCleared } from '@/lib/auth'

/** Disconnects the wallet whenever the session ends (logout, 401/410). Renders nothing. */
export function WalletSessionSync() {
  const config = useConfig()
  useEffect(() => onSessionCleared(() => void disconnect(config).catch(() => undefined)), [config])
  return null
}
