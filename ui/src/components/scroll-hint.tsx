import { Box, type BoxProps, HStack, Text } from '@chakra-ui/react'
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react'
import { LuArrowLeftRight } from 'react-icons/lu'

/** Which sides of a horizontally scrolling box hide content (1 px of slack for sub-pixel widths). */
export function hiddenSides(el: Pick<HTMLElement, 'scrollLeft' | 'scrollWidth' | 'clientWidth'>): { start: boolean; end: boolean } {
  const overflow = el.scrollWidth - el.clientWidth
  if (overflow <= 1) return { start: false, end: false }
  // Right to left, scrollLeft runs from 0 down to -overflow: the distance from the start either way.
  const fromStart = Math.abs(el.scrollLeft)
  return { start: fromStart > 1, end: fromStart < overflow - 1 }
}

const fade = (side: 'start' | 'end'): BoxProps => ({
  position: 'absolute',
  top: '0',
  bottom: '0',
  [side === 'start' ? 'insetStart' : 'insetEnd']: '0',
  w: '10',
  pointerEvents: 'none',
  bgGradient: side === 'start' ? 'to-r' : 'to-l',
  gradientFrom: 'bg',
  gradientTo: 'transparent',
  borderRadius: 'inherit',
  zIndex: '1',
})

/**
 * A box that scrolls sideways and shows it: a fade (and shadow) on each side that hides content,
 * and while anything is hidden, `hint` above it ("Swipe sideways to see every column"). The box can
 * take the keyboard's focus (arrow keys scroll it) and is named by `label`, described by the hint.
 */
export function HorizontalScroll({ label, hint, children, ...rest }: { label: string; hint: string; children: ReactNode } & BoxProps) {
  const ref = useRef<HTMLDivElement>(null)
  const hintId = useId()
  const [sides, setSides] = useState({ start: false, end: false })
  const measure = useCallback(() => {
    const el = ref.current
    if (!el) return
    const next = hiddenSides(el)
    setSides((now) => (now.start === next.start && now.end === next.end ? now : next))
  }, [])
  useEffect(() => {
    const el = ref.current
    if (!el) return
    measure()
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)
    observer?.observe(el)
    if (el.firstElementChild) observer?.observe(el.firstElementChild)
    window.addEventListener('resize', measure)
    return () => {
      observer?.disconnect()
      window.removeEventListener('resize', measure)
    }
  }, [measure])
  const overflowing = sides.start || sides.end
  return (
    <Box>
      {overflowing && (
        <HStack id={hintId} gap="1.5" mb="2" fontSize="xs" color="fg.muted" data-testid="scroll-hint">
          <LuArrowLeftRight aria-hidden />
          <Text>{hint}</Text>
        </HStack>
      )}
      <Box position="relative" borderRadius={rest.borderRadius}>
        <Box
          ref={ref}
          overflowX="auto"
          onScroll={measure}
          role="region"
          aria-label={label}
          aria-describedby={overflowing ? hintId : undefined}
          tabIndex={overflowing ? 0 : undefined}
          _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '2px' }}
          colorPalette="brand"
          data-testid="scroll-area"
          data-hidden-start={sides.start || undefined}
          data-hidden-end={sides.end || undefined}
          {...rest}
        >
          {children}
        </Box>
        {sides.start && <Box {...fade('start')} boxShadow="inset 10px 0 8px -8px rgba(0,0,0,0.25)" data-testid="scroll-fade-start" />}
        {sides.end && <Box {...fade('end')} boxShadow="inset -10px 0 8px -8px rgba(0,0,0,0.25)" data-testid="scroll-fade-end" />}
      </Box>
    </Box>
  )
}
