import { useEffect } from 'react'
import { create } from 'zustand'
import type { Change, Notice } from './stream'

/**
 * What the screens want to hear of (`market`, `nft:{id}`, `collection:{id}`, counted so two
 * screens asking for one topic share it), whether the stream is connected, and who listens to
 * its changes. The one connection ({@link LiveStream}) follows the topics.
 */
type LiveState = {
  topics: Record<string, number>
  connected: boolean
  /** When the connection went down (ms), while it is down. */
  downSince: number | null
  addTopic: (topic: string) => void
  removeTopic: (topic: string) => void
  setConnected: (connected: boolean) => void
}

export const useLiveStore = create<LiveState>((set) => ({
  topics: {},
  connected: false,
  downSince: null,
  addTopic: (topic) => set((s) => ({ topics: { ...s.topics, [topic]: (s.topics[topic] ?? 0) + 1 } })),
  removeTopic: (topic) =>
    set((s) => {
      const topics = { ...s.topics }
      if ((topics[topic] ?? 0) <= 1) delete topics[topic]
      else topics[topic] -= 1
      return { topics }
    }),
  setConnected: (connected) => set((s) => ({ connected, downSince: connected ? null : (s.downSince ?? Date.now()) })),
}))

/** The topics wanted now, sorted (one string per set: a change of set reconnects). */
export function topicList(topics: Record<string, number>): string[] {
  return Object.keys(topics).sort()
}

type ChangeListener = (change: Change) => void
type NoticeListener = (notice: Notice) => void
type ResetListener = () => void

const changeListeners = new Set<ChangeListener>()
const noticeListeners = new Set<NoticeListener>()
const resetListeners = new Set<ResetListener>()

/** Passes a change on to every listener (the stream calls it). */
export function publishChange(change: Change) {
  changeListeners.forEach((listener) => listener(change))
  change.notices.forEach((notice) => noticeListeners.forEach((listener) => listener(notice)))
}

/** Tells every listener to refetch what it shows (the stream could not resume). */
export function publishReset() {
  resetListeners.forEach((listener) => listener())
}

/** Listens to the stream's changes while mounted. */
export function useLiveChanges(listener: ChangeListener, onReset?: ResetListener) {
  useEffect(() => {
    changeListeners.add(listener)
    if (onReset) resetListeners.add(onReset)
    return () => {
      changeListeners.delete(listener)
      if (onReset) resetListeners.delete(onReset)
    }
  }, [listener, onReset])
}

/** Listens to the signed-in user's new notices while mounted. */
export function useLiveNotices(listener: NoticeListener) {
  useEffect(() => {
    noticeListeners.add(listener)
    return () => {
      noticeListeners.delete(listener)
    }
  }, [listener])
}

/** Subscribes the stream to `topic` while mounted (null: none). */
export function useLiveTopic(topic: string | null) {
  const addTopic = useLiveStore((s) => s.addTopic)
  const removeTopic = useLiveStore((s) => s.removeTopic)
  useEffect(() => {
    if (!topic) return
    addTopic(topic)
    return () => removeTopic(topic)
  }, [topic, addTopic, removeTopic])
}
