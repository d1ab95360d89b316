import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { stubApi } from '@/testing/fetch'
import { renderRoutes } from '@/testing/render'
import { decodeTrait, encodeTrait, selectionFromParams, traitParams } from '@/lib/traits/trait-filter'
import { TraitFacets } from './trait-facets'

const facets = (selected: string[] = []) => ({
  total: 7,
  traits: [
    {
      name: 'Background',
      distinct: 10,
      values: Array.from({ length: 9 }, (_, i) => ({ value: `Colour ${i}`, count: 20 - i, selected: selected.includes(`Colour ${i}`) })),
    },
    { name: 'Eyes: left', distinct: 2, values: [{ value: 'Laser', count: 3, selected: selected.includes('Laser') }, { value: 'Sleepy', count: 1, selected: false }] },
  ],
})

function Page() {
  return <TraitFacets scope={{ scope: 'explore', formOfSale: 'FIXEDPRICE' }} />
}

const facetCalls = (api: ReturnType<typeof stubApi>) =>
  api.mock.calls.map(([url]) => new URL(String(url), 'http://x')).filter((url) => url.pathname === '/api/nft/facets')

describe('trait facets', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('encodes and decodes the trait parameter as the API does', () => {
    expect(encodeTrait('Eyes: left', 'a:b')).toBe('Eyes\\: left:a:b')
    expect(decodeTrait('Eyes\\: left:a:b')).toEqual(['Eyes: left', 'a:b'])
    expect(decodeTrait('a\\\\:b')).toEqual(['a\\', 'b'])
    for (const bad of ['Blue', ':Blue', 'Background:', 'a\\b:c']) expect(decodeTrait(bad)).toBeNull()
    const params = new URLSearchParams('trait=Hat:Cap&trait=Hat:Crown&trait=Eyes:Laser&trait=broken&trait=Hat:Cap')
    expect(selectionFromParams(params)).toEqual({ Hat: ['Cap', 'Crown'], Eyes: ['Laser'] })
    expect(traitParams({ Hat: ['Crown', 'Cap'], Eyes: ['Laser'] })).toEqual(['Eyes:Laser', 'Hat:Cap', 'Hat:Crown'])
  })

  it('shows each value with its count, the top eight until "show all", and keeps the choice in the URL', async () => {
    const api = stubApi([{ path: '/api/nft/facets', body: facets() }])
    const { router } = renderRoutes([{ path: '/explore', element: <Page /> }], '/explore?trait=Eyes%5C%3A%20left%3ALaser')
    const panel = (await screen.findAllByTestId('facet-panel'))[0]
    const background = await within(panel).findByText('Colour 0')
    expect(background).toBeInTheDocument()
    const values = within(panel).getAllByTestId('facet-value').filter((el) => el.dataset.trait === 'Background')
    expect(values).toHaveLength(8)
    expect(values[0]).toHaveTextContent('Colour 020')
    expect(values[7].dataset.count).toBe('13')

    // The URL's choice is sent to the API, in its encoding, with the list's other filters.
    const first = facetCalls(api)[0]
    expect(first.searchParams.getAll('trait')).toEqual(['Eyes\\: left:Laser'])
    expect(first.searchParams.get('scope')).toBe('explore')
    expect(first.searchParams.get('formOfSale')).toBe('FIXEDPRICE')
    expect(first.searchParams.get('values')).toBe('8')

    // Choosing a value adds it to the URL (a history entry) and asks again with both.
    fireEvent.click(within(panel).getByText('Colour 2'))
    await waitFor(() => expect(router.state.location.search).toContain('trait=Background%3AColour+2'))
    expect(new URLSearchParams(router.state.location.search).getAll('trait')).toEqual(['Background:Colour 2', 'Eyes\\: left:Laser'])
    await waitFor(() => expect(facetCalls(api).at(-1)?.searchParams.getAll('trait')).toEqual(['Background:Colour 2', 'Eyes\\: left:Laser']))

    // "Show all 10" asks for the whole list.
    fireEvent.click(within(panel).getByTestId('facet-more'))
    await waitFor(() => expect(facetCalls(api).at(-1)?.searchParams.get('values')).toBe('200'))

    // Back undoes the choice.
    await act(() => router.navigate(-1))
    expect(new URLSearchParams(router.state.location.search).getAll('trait')).toEqual(['Eyes\\: left:Laser'])
  })

  it('shows the chosen values checked and clears them all at once', async () => {
    stubApi([{ path: '/api/nft/facets', body: facets(['Laser']) }])
    const { router } = renderRoutes([{ path: '/explore', element: <Page /> }], '/explore?trait=Eyes%5C%3A%20left%3ALaser&type=c1')
    const panel = (await screen.findAllByTestId('facet-panel'))[0]
    const laser = (await within(panel).findAllByTestId('facet-value')).find((el) => el.dataset.value === 'Laser')!
    expect(laser.querySelector('input')).toBeChecked()
    fireEvent.click(within(panel).getByTestId('facets-clear'))
    await waitFor(() => expect(router.state.location.search).toBe('?type=c1'))
  })
})
