import { useEffect, useState } from 'react'
import type { Remaining } from '@/lib/format'

export type { Remaining }

/** The countdown ticks once a second. */
export const COUNTDOWN_TICK_MS = 1000

/** Days, hours, minutes and seconds from `now` to `end` (all 0 and `done` once it passed). */
export function remaining(end: string | number | Date, now = Date.now()): Remaining {
  const ms = new Date(end).getTime() - now
  if (!Number.isFinite(ms) || ms <= 0) return { days: 0, hours: 0, minutes: 0, seconds: 0, done: true }
  const total = Math.floor(ms / 1000)
  return {
    days: Math.floor(total / 86400),
    hours: Math.floor((total % 86400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
    done: false,
  }
}

/** The time left until `end`, re-rendered every second while it runs. */
export function useCountdown(end: string | number | Date | null | undefined): Remaining | null {
  const [now, setNow] = useState(() => Date.now())
  const running = !!end && !remaining(end, now).done
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => setNow(Date.now()), COUNTDOWN_TICK_MS)
    return () => clearInterval(timer)
  }, [running])
  return end ? remaining(end, now) : null
}
