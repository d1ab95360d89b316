import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '@/testing/render'
import type { TrendingNft } from '../api/trending-nfts'
import { DECK_RESET_MS, NftDeck, SWIPE_VELOCITY } from './nft-deck'

const nfts: TrendingNft[] = Array.from({ length: 6 }, (_, i) => ({
  _id: `n${i}`,
  file: '',
  title: `Item ${i}`,
  fixedPrice: 1,
  creator: { userId: 'c', username: 'c', fullName: 'C', avatar: '' },
  currentOwner: { userId: 'o', username: 'o', fullName: 'O', avatar: '' },
  totalLikes: 0,
  isLiked: false,
  updatedAt: new Date().toISOString(),
}))

/** The card wrappers, bottom (index 0) to top (index 5). */
const wrappers = () => screen.getAllByTestId('deck-card').map((card) => card.parentElement as HTMLElement)
const thrown = (el: HTMLElement) => el.style.transform.includes('900px')

/** Drags the top card by `dx` pixels in `ms` milliseconds. */
function drag(el: HTMLElement, dx: number, ms: number, now: { t: number }) {
  fireEvent.pointerDown(el, { clientX: 100, clientY: 100, pointerId: 1 })
  now.t += ms
  fireEvent.pointerMove(el, { clientX: 100 + dx, clientY: 100, pointerId: 1 })
  fireEvent.pointerUp(el, { clientX: 100 + dx, clientY: 100, pointerId: 1 })
}

describe('trending deck', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    vi.useRealTimers()
  })

  it(`throws the top card away only when dragged faster than ${SWIPE_VELOCITY} px/ms`, () => {
    const now = { t: 1000 }
    vi.spyOn(performance, 'now').mockImplementation(() => now.t)
    renderPage(<NftDeck nfts={nfts} tilted />)
    const top = () => wrappers()[5]
    drag(top(), 60, 600, now) // 0.1 px/ms: stays
    expect(thrown(top())).toBe(false)
    drag(top(), 120, 400, now) // 0.3 px/ms: goes
    expect(thrown(top())).toBe(true)
    expect(thrown(wrappers()[4])).toBe(false)
  })

  it(`comes back ${DECK_RESET_MS} ms after the last card is gone`, () => {
    const now = { t: 1000 }
    vi.spyOn(performance, 'now').mockImplementation(() => now.t)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    renderPage(<NftDeck nfts={nfts} tilted={false} />)
    for (let i = 5; i >= 0; i -= 1) drag(wrappers()[i], -200, 100, now)
    expect(wrappers().every(thrown)).toBe(true)
    act(() => vi.advanceTimersByTime(DECK_RESET_MS - 50))
    expect(wrappers().every(thrown)).toBe(true)
    act(() => vi.advanceTimersByTime(100))
    expect(wrappers().some(thrown)).toBe(false)
  })
})
