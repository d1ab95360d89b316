import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '@/testing/render'
import { HorizontalScroll, hiddenSides } from './scroll-hint'

describe('hiddenSides', () => {
  it('says which sides hide content', () => {
    expect(hiddenSides({ scrollLeft: 0, scrollWidth: 390, clientWidth: 390 })).toEqual({ start: false, end: false })
    expect(hiddenSides({ scrollLeft: 0, scrollWidth: 900, clientWidth: 390 })).toEqual({ start: false, end: true })
    expect(hiddenSides({ scrollLeft: 200, scrollWidth: 900, clientWidth: 390 })).toEqual({ start: true, end: true })
    expect(hiddenSides({ scrollLeft: 509.6, scrollWidth: 900, clientWidth: 390 })).toEqual({ start: true, end: false })
    // Right to left: scrollLeft goes negative.
    expect(hiddenSides({ scrollLeft: -510, scrollWidth: 900, clientWidth: 390 })).toEqual({ start: true, end: false })
  })
})

describe('HorizontalScroll', () => {
  afterEach(() => vi.restoreAllMocks())

  /** jsdom lays nothing out: give the scroll area the widths of a phone showing a wide table. */
  function layOut(scrollWidth: number, clientWidth: number) {
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'scroll-area' ? scrollWidth : 0
    })
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'scroll-area' ? clientWidth : 0
    })
  }

  it('on a narrow screen: a hint, a fade at the hidden side, a focusable region the hint describes', () => {
    layOut(900, 390)
    renderPage(
      <HorizontalScroll label="Collection stats" hint="Swipe sideways to see every column.">
        <table />
      </HorizontalScroll>,
    )
    const region = screen.getByRole('region', { name: 'Collection stats' })
    expect(region).toHaveAttribute('tabindex', '0')
    expect(region).toHaveAccessibleDescription('Swipe sideways to see every column.')
    expect(screen.getByTestId('scroll-hint')).toBeVisible()
    expect(screen.getByTestId('scroll-fade-end')).toBeInTheDocument()
    expect(screen.queryByTestId('scroll-fade-start')).toBeNull()

    // Scrolled to the end: the fade moves to the start.
    act(() => {
      region.scrollLeft = 510
      fireEvent.scroll(region)
    })
    expect(screen.getByTestId('scroll-fade-start')).toBeInTheDocument()
    expect(screen.queryByTestId('scroll-fade-end')).toBeNull()
  })

  it('where everything fits: no hint, no fade, not a tab stop', () => {
    layOut(1200, 1200)
    renderPage(
      <HorizontalScroll label="Collection stats" hint="Swipe sideways to see every column.">
        <table />
      </HorizontalScroll>,
    )
    expect(screen.queryByTestId('scroll-hint')).toBeNull()
    expect(screen.queryByTestId('scroll-fade-end')).toBeNull()
    expect(screen.getByRole('region', { name: 'Collection stats' })).not.toHaveAttribute('tabindex')
  })
})
