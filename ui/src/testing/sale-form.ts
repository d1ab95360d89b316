import { screen, waitFor } from '@testing-library/react'
import { expect } from 'vitest'
import type userEvent from '@testing-library/user-event'

/**
 * Chooses a sale type on the create or update form and waits until the form shows it: Chakra's
 * radio group reports the change from its state machine, which on a loaded machine lands a moment
 * after the click resolves.
 */
export async function chooseSaleForm(user: ReturnType<typeof userEvent.setup>, label: 'Fixed price' | 'Auction' | 'Not for sale') {
  await user.click(screen.getByText(label))
  await waitFor(() => expect(screen.getByRole('radio', { name: label })).toBeChecked())
}
