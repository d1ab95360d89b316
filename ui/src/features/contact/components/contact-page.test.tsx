import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { callBody, stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { ContactPage } from './contact-page'

const send = () => userEvent.click(screen.getByRole('button', { name: 'Send message' }))

async function fillAll() {
  await userEvent.type(screen.getByLabelText('Name'), 'Neo')
  await userEvent.type(screen.getByLabelText('Email'), 'neo@example.com')
  await userEvent.type(screen.getByLabelText('Subject'), 'Hello')
  await userEvent.type(screen.getByLabelText('Message'), 'A question')
}

describe('contact us', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('validates on submit with the spec messages', async () => {
    stubApi([])
    renderPage(<ContactPage />)
    expect(screen.getByRole('heading', { name: 'Contact us' })).toBeInTheDocument()
    await send()
    expect(await screen.findAllByText('Required')).toHaveLength(3)
    expect(screen.getByText('Enter a valid email')).toBeInTheDocument()
  })

  it('sends the message, shows the server message in a toast and resets the form', async () => {
    const api = stubApi([{ method: 'POST', path: '/api/misc/contactus', message: 'Thanks, we will get back to you' }])
    renderPage(<ContactPage />)
    await fillAll()
    await send()
    expect(await screen.findByText('Thanks, we will get back to you')).toBeInTheDocument()
    expect(callBody(api, 0)).toEqual({ name: 'Neo', email: 'neo@example.com', subject: 'Hello', message: 'A question' })
    expect(screen.getByLabelText('Name')).toHaveValue('')
  })

  it('shows the response message on failure', async () => {
    stubApi([{ method: 'POST', path: '/api/misc/contactus', status: 500, message: 'Mail server unavailable' }])
    renderPage(<ContactPage />)
    await fillAll()
    await send()
    expect(await screen.findByText('Mail server unavailable')).toBeInTheDocument()
  })
})
