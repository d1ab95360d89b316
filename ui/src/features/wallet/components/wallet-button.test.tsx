import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { parseEther } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { useWalletConnection } from '@/lib/wallet-connection'
import { renderPage } from '@/testing/render'
import { WalletButton } from './wallet-button'
import { WalletPanel } from './wallet-panel'

const ADDRESS = '0xBcd4042DE499D14e55001CcbB24a551F3b954096'

function connect(balance: string) {
  useWalletConnection.setState({ status: 'connected', address: ADDRESS, chainId: 80001, balanceWei: parseEther(balance) })
}

describe('the wallet balance in the shell', () => {
  afterEach(() => useWalletConnection.setState({ status: 'disconnected', address: undefined, balanceWei: undefined }))

  it('reads "10K MATIC" on the wallet button, the exact figure in its menu', async () => {
    connect('10000')
    renderPage(<WalletButton />)
    const button = screen.getByTestId('wallet-menu')
    // Not the old "...00 MATIC": the balance itself, readable.
    expect(within(button).getByTestId('wallet-balance')).toHaveTextContent(/^10K MATIC$/)
    await userEvent.click(button)
    expect(await screen.findByTestId('wallet-balance-exact')).toHaveTextContent('10,000 MATIC')
  })

  it('shows the short and the exact balance in the drawer, where there is no hover', () => {
    connect('9.87654')
    renderPage(<WalletPanel />)
    const panel = screen.getByTestId('wallet-panel')
    expect(within(panel).getByTestId('wallet-balance')).toHaveTextContent('9.88 MATIC')
    expect(within(panel).getByTestId('wallet-balance-exact')).toHaveTextContent('9.87654 MATIC')
  })

  it('shows a balance that is already exact only once', () => {
    connect('9.5')
    renderPage(<WalletPanel />)
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent(/^9\.5 MATIC$/)
    expect(screen.queryByTestId('wallet-balance-exact')).toBeNull()
  })
})
