import type { Connector } from '@wagmi/core'
import type { WalletType } from '@/lib/wallet-store'

/** The wallet type saved locally and sent to the server for a connector. */
export function walletTypeOf(connector: Pick<Connector, 'id' | 'type'>): WalletType {
  const id = connector.id.toLowerCase()
  if (id.includes('metamask')) return 'Metamask'
  if (id.includes('coinbase') || connector.type === 'coinbaseWallet') return 'Coinbase'
  return 'Other'
}

/** How long the dialog waits for an injected wallet (MetaMask) to appear. */
export const WALLET_DETECTION_TIMEOUT_MS = 1000

type Injected = { isMetaMask?: boolean; request?: unknown }

/** Resolves true once window.ethereum (MetaMask) is present, false after the timeout. */
export function detectInjectedWallet(timeoutMs = WALLET_DETECTION_TIMEOUT_MS): Promise<boolean> {
  const present = () => !!(window as unknown as { ethereum?: Injected }).ethereum
  if (present()) return Promise.resolve(true)
  return new Promise((resolve) => {
    const started = Date.now()
    const timer = window.setInterval(() => {
      if (present()) {
        window.clearInterval(timer)
        resolve(true)
      } else if (Date.now() - started >= timeoutMs) {
        window.clearInterval(timer)
        resolve(false)
      }
    }, 100)
  })
}
