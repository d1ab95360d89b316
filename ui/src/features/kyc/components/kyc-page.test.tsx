import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderRoutes } from '@/testing/render'
import { KycPage } from './kyc-page'

const routes = [
  { path: '/profile/kyc-pending', element: <KycPage status="pending" /> },
  { path: '/profile/kyc-approved', element: <KycPage status="approved" /> },
]

describe('KYC demo toggle', () => {
  it('pending with the toggle on goes to approved, and back', async () => {
    const { router } = renderRoutes(routes, '/profile/kyc-pending')
    expect(screen.getByText('Verification pending')).toBeInTheDocument()
    await userEvent.click(screen.getByText('Demo: approved'))
    expect(await screen.findByText('Verification approved')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/profile/kyc-approved')
    await userEvent.click(screen.getByText('Demo: approved'))
    expect(await screen.findByText('Verification pending')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/profile/kyc-pending')
  })
})
