import { Box } from '@chakra-ui/react'
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import type { TrendingNft } from '../api/trending-nfts'
import { DeckCard } from './deck-card'

/** A card leaves the deck when dragged faster than this (px per ms). */
export const SWIPE_VELOCITY = 0.2
/** When every card is gone the deck comes back after this delay. */
export const DECK_RESET_MS = 600

type Drag = { id: string; startX: number; startY: number; startTime: number; dx: number; dy: number; moved: boolean }

/** Tilted stacked cards (flat on mobile). Click opens /explore/{id}; a fast drag throws the top card away. */
export function NftDeck({ nfts, tilted }: { nfts: TrendingNft[]; tilted: boolean }) {
  const navigate = useNavigate()
  const [gone, setGone] = useState<Record<string, number>>({})
  const [drag, setDrag] = useState<Drag | null>(null)
  const dragRef = useRef<Drag | null>(null)

  const remaining = nfts.filter((n) => !(n._id in gone))
  useEffect(() => {
    if (nfts.length > 0 && remaining.length === 0) {
      const timer = window.setTimeout(() => setGone({}), DECK_RESET_MS)
      return () => window.clearTimeout(timer)
    }
  }, [remaining.length, nfts.length])

  const top = remaining[remaining.length - 1]

  const onPointerDown = (e: React.PointerEvent, id: string) => {
    if (id !== top?._id) return
    ;(e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId)
    const d = { id, startX: e.clientX, startY: e.clientY, startTime: performance.now(), dx: 0, dy: 0, moved: false }
    dragRef.current = d
    setDrag(d)
  }
  const onPointerMove = (e: React.PointerEvent) => {
    const d = dragRef.current
    if (!d) return
    const next = { ...d, dx: e.clientX - d.startX, dy: e.clientY - d.startY, moved: d.moved || Math.hypot(e.clientX - d.startX, e.clientY - d.startY) > 6 }
    dragRef.current = next
    setDrag(next)
  }
  const onPointerUp = (e: React.PointerEvent) => {
    const d = dragRef.current
    dragRef.current = null
    setDrag(null)
    if (!d) return
    const elapsed = Math.max(1, performance.now() - d.startTime)
    const dx = e.clientX - d.startX
    const velocity = Math.abs(dx) / elapsed
    if (d.moved && velocity > SWIPE_VELOCITY) {
      setGone((g) => ({ ...g, [d.id]: dx < 0 ? -1 : 1 }))
    } else if (!d.moved) {
      navigate(`/explore/${d.id}`)
    }
  }

  return (
    <Box position="relative" w={tilted ? '340px' : '280px'} h={tilted ? '450px' : '380px'} mx="auto" style={{ touchAction: 'pan-y' }} data-testid="nft-deck">
      {nfts.map((nft, index) => {
        const dir = gone[nft._id]
        const isDragging = drag?.id === nft._id
        const depth = remaining.length - 1 - remaining.indexOf(nft)
        const rotation = tilted ? ((index * 37) % 11) - 5 : 0
        const transform =
          dir !== undefined
            ? `translate(${dir * 900}px, -80px) rotate(${dir * 45}deg)`
            : isDragging
              ? `translate(${drag.dx}px, ${drag.dy * 0.2}px) rotate(${rotation + drag.dx / 12}deg)`
              : `translate(0px, ${tilted ? depth * -4 : depth * -6}px) rotate(${rotation}deg) scale(${1 - Math.min(depth, 4) * 0.015})`
        return (
          <Box
            key={nft._id}
            position="absolute"
            inset="0"
            cursor={nft._id === top?._id ? 'grab' : 'default'}
            style={{ transform, transition: isDragging ? 'none' : 'transform 0.45s cubic-bezier(.2,.8,.2,1)', zIndex: index }}
            onPointerDown={(e) => onPointerDown(e, nft._id)}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={() => {
              dragRef.current = null
              setDrag(null)
            }}
            userSelect="none"
          >
            <DeckCard nft={nft} top={nft._id === top?._id} />
          </Box>
        )
      })}
    </Box>
  )
}
