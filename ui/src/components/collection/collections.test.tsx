// vitest: isolated (see mockingTestFiles in vite.config.ts)
import Cookies from 'js-cookie'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_COOKIE, type UserProfile, useSession } from '@/lib/auth'
import type { Collection } from '@/lib/collection/types'
import { stubApi } from '@/testing/fetch'
import { renderPage } from '@/testing/render'
import { CollectionDialog } from './collection-dialog'
import { ManagedCollectionGrid } from './managed-collection-grid'

const me: UserProfile = {
  userId: 'u1', email: 'neo@example.com', username: 'neo', fullName: 'Thomas Anderson', mobileNumber: '', avatar: '', bio: '', coverImage: '', authProvider: 'EMAIL', connectedWallet: [],
}
function signIn() {
  Cookies.set(TOKEN_COOKIE, 'tok')
  useSession.setState({ token: 'tok', user: me })
}
const collection = (id: string, creator: string, extra: Partial<Collection> = {}): Collection => ({
  _id: id, title: `Set ${id}`, image: `/ipfs/${id}.png`, creator: { userId: creator, username: creator === 'u1' ? 'neo' : 'trinity' }, nftCount: 2, isLiked: false, totalLikes: 3, ...extra,
})
const page = (data: Collection[], lastPage = true) => ({ data, currentPage: 1, lastPage, totalItems: data.length })
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
const png = () => new File([PNG_BYTES], 'art.png', { type: 'image/png' })

describe('collection dialog', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('asks for the image first, then the title, and sends neither until both are there', async () => {
    signIn()
    const api = stubApi([{ method: 'POST', path: '/api/collection', body: collection('c9', 'u1') }])
    const onSaved = vi.fn()
    const onClose = vi.fn()
    renderPage(<CollectionDialog open onClose={onClose} onSaved={onSaved} />)
    expect(await screen.findByText('Create Collection')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(screen.getByText('Image is required')).toBeInTheDocument()
    expect(screen.queryByText('Title is required')).not.toBeInTheDocument()

    fireEvent.change(screen.getByTestId('collection-image-input'), { target: { files: [png()] } })
    expect(await screen.findByRole('img', { name: 'Collection image' })).toBeInTheDocument()
    await userEvent.type(screen.getByPlaceholderText('My collection'), '   ')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(screen.queryByText('Image is required')).not.toBeInTheDocument()
    expect(screen.getByText('Title is required')).toBeInTheDocument()
    expect(api).not.toHaveBeenCalled()

    await userEvent.type(screen.getByPlaceholderText('My collection'), 'Neon')
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const answer = api.getMockImplementation()!
    api.mockImplementation(async (...args) => {
      await gate
      return answer(...args)
    })
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Collection creating...')).toBeInTheDocument()
    release()
    expect(await screen.findByText('Collection Created!')).toBeInTheDocument()
    const [url, init] = api.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/collection')
    expect(init.method).toBe('POST')
    const sent = init.body as FormData
    expect(sent.get('title')).toBe('Neon')
    expect((sent.get('image') as File).name).toBe('art.png')
    expect(onSaved).toHaveBeenCalledTimes(1)
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('refuses, at once, a file whose content is not a PNG, JPEG or WebP image, whatever its name', async () => {
    signIn()
    renderPage(<CollectionDialog open onClose={() => {}} onSaved={() => {}} />)
    const input = await screen.findByTestId('collection-image-input')
    fireEvent.change(input, { target: { files: [new File(['GIF89a\x01\x00'], 'art.gif', { type: 'image/gif' })] } })
    expect(await screen.findByText('This file is not a PNG, JPEG or WebP image.')).toBeInTheDocument()
    fireEvent.change(input, { target: { files: [new File(['just some text'], 'notes.png', { type: 'image/png' })] } })
    expect(await screen.findByText('This file is not a PNG, JPEG or WebP image.')).toBeInTheDocument()
    expect(screen.queryByRole('img', { name: 'Collection image' })).not.toBeInTheDocument()
    // A real PNG named .txt is taken: the content decides.
    fireEvent.change(input, { target: { files: [new File([PNG_BYTES], 'art.txt', { type: 'text/plain' })] } })
    expect(await screen.findByRole('img', { name: 'Collection image' })).toBeInTheDocument()
    expect(screen.queryByText('This file is not a PNG, JPEG or WebP image.')).not.toBeInTheDocument()
  })

  it('update loads the existing image and title, lets the image be removed and re-picked, and shows the server error', async () => {
    signIn()
    const api = stubApi([
      { path: '/api/collection/browsebyid/c1', body: collection('c1', 'u1', { title: 'Old title' }) },
      { method: 'PUT', path: '/api/collection/c1', status: 400, message: 'Title too long' },
    ])
    const onSaved = vi.fn()
    renderPage(<CollectionDialog open collectionId="c1" onClose={() => {}} onSaved={onSaved} />)
    expect(await screen.findByText('Update Collection')).toBeInTheDocument()
    expect(await screen.findByDisplayValue('Old title')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Collection image' })).toHaveAttribute('src', '/ipfs/c1.png')

    await userEvent.click(screen.getByRole('button', { name: 'Remove image' }))
    expect(screen.queryByRole('img', { name: 'Collection image' })).not.toBeInTheDocument()
    fireEvent.change(screen.getByTestId('collection-image-input'), { target: { files: [new File(['RIFF\x24\x00\x00\x00WEBPVP8 '], 'new.webp', { type: 'image/webp' })] } })
    expect(await screen.findByRole('img', { name: 'Collection image' })).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Update' }))
    expect(await screen.findByText('Title too long')).toBeInTheDocument()
    const put = api.mock.calls.find(([, init]) => (init as RequestInit | undefined)?.method === 'PUT') as [string, RequestInit]
    expect((put[1].body as FormData).get('title')).toBe('Old title')
    expect(((put[1].body as FormData).get('image') as File).name).toBe('new.webp')
    expect(onSaved).not.toHaveBeenCalled()
  })
})

describe('collection grid', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    useSession.setState({ token: undefined, user: null })
  })

  it('shows the edit menu only on the signed-in creator\'s collections, and links creators', async () => {
    signIn()
    stubApi([
      { path: '/api/account/myprofile', body: me },
      { path: '/api/collection/browse', body: page([collection('c1', 'u1'), collection('c2', 'u2')]) },
    ])
    renderPage(<ManagedCollectionGrid detailPath={(id) => `/collections/collection/${id}`} emptyText="none" />)
    const cards = await screen.findAllByTestId('collection-card')
    expect(cards).toHaveLength(2)
    expect(within(cards[0]).getByTestId('collection-menu')).toBeInTheDocument()
    expect(within(cards[1]).queryByTestId('collection-menu')).not.toBeInTheDocument()
    expect(within(cards[0]).getByTestId('collection-creator')).toHaveAttribute('href', '/myprofile')
    expect(within(cards[1]).getByTestId('collection-creator')).toHaveAttribute('href', '/user/u2')
    expect(within(cards[1]).getAllByRole('link', { name: 'Set c2' })[0]).toHaveAttribute('href', '/collections/collection/c2')
  })

  it('on the own profile every collection gets the menu', async () => {
    signIn()
    stubApi([
      { path: '/api/account/myprofile', body: me },
      { path: '/api/collection/browse', body: page([collection('c2', 'u2')]) },
    ])
    renderPage(<ManagedCollectionGrid ownProfile userId="u1" detailPath={(id) => `/myprofile/collection/${id}`} emptyText="none" />)
    const [card] = await screen.findAllByTestId('collection-card')
    expect(within(card).getByTestId('collection-menu')).toBeInTheDocument()
  })

  it('a visitor sees no menu and the empty message when there are none', async () => {
    stubApi([{ path: '/api/collection/browse', body: page([]) }])
    renderPage(<ManagedCollectionGrid detailPath={(id) => id} emptyText="No collections found" />)
    expect(await screen.findByText('No collections found')).toBeInTheDocument()
  })

  it('the like count changes only after the server accepts the like', async () => {
    signIn()
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const api = stubApi([
      { path: '/api/account/myprofile', body: me },
      { path: '/api/collection/browse', body: page([collection('c2', 'u2')]) },
      { method: 'PUT', path: '/api/collection/like/c2', status: 500, message: 'down' },
    ])
    renderPage(<ManagedCollectionGrid detailPath={(id) => id} emptyText="none" />)
    await screen.findByTestId('collection-card')
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await userEvent.click(screen.getByTestId('collection-like'))
    await waitFor(() => expect(api.mock.calls.some(([u]) => u === '/api/collection/like/c2')).toBe(true))
    expect(screen.getByTestId('collection-likes')).toHaveTextContent('3')

    stubApi([{ method: 'PUT', path: '/api/collection/like/c2', body: null }])
    const pending = vi.mocked(fetch)
    pending.mockImplementationOnce(async () => {
      await gate
      return new Response(JSON.stringify({ statuscode: 200, body: null, message: 'Liked' }), { status: 200 })
    })
    await userEvent.click(screen.getByTestId('collection-like'))
    expect(screen.getByTestId('collection-likes')).toHaveTextContent('3')
    release()
    await waitFor(() => expect(screen.getByTestId('collection-likes')).toHaveTextContent('4'))
    expect(screen.getByTestId('collection-like')).toHaveAttribute('aria-pressed', 'true')
  })

  it('delete asks for confirmation, then calls the server and reloads', async () => {
    signIn()
    const api = stubApi([
      { path: '/api/account/myprofile', body: me },
      { path: '/api/collection/browse', body: page([collection('c1', 'u1')]) },
      { method: 'DELETE', path: '/api/collection/c1', body: null },
    ])
    renderPage(<ManagedCollectionGrid detailPath={(id) => id} emptyText="none" />)
    await userEvent.click(await screen.findByTestId('collection-menu'))
    await userEvent.click(await screen.findByRole('menuitem', { name: /Delete/ }))
    const dialog = await screen.findByTestId('delete-collection-dialog')
    expect(api.mock.calls.some(([, i]) => (i as RequestInit | undefined)?.method === 'DELETE')).toBe(false)
    const browsesBefore = api.mock.calls.filter(([u]) => String(u).startsWith('/api/collection/browse')).length
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(api.mock.calls.some(([u, i]) => u === '/api/collection/c1' && (i as RequestInit).method === 'DELETE')).toBe(true))
    await waitFor(() => expect(api.mock.calls.filter(([u]) => String(u).startsWith('/api/collection/browse')).length).toBeGreaterThan(browsesBefore))
  })
})
