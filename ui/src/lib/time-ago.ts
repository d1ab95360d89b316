/** 'just now', minutes, hours, days, months (30 days) or years (360 days) ago, as i18n key + count. */
export function timeAgo(date: string | number | Date, now = Date.now()): { key: string; count: number } {
  const seconds = Math.max(0, Math.floor((now - new Date(date).getTime()) / 1000))
  const minutes = Math.floor(seconds / 60)
  const hours = Math.floor(minutes / 60)
  const days = Math.floor(hours / 24)
  if (days >= 360) return { key: 'time.yearsAgo', count: Math.floor(days / 360) }
  if (days >= 30) return { key: 'time.monthsAgo', count: Math.floor(days / 30) }
  if (days >= 1) return { key: 'time.daysAgo', count: days }
  if (hours >= 1) return { key: 'time.hoursAgo', count: hours }
  if (minutes >= 1) return { key: 'time.minutesAgo', count: minutes }
  return { key: 'time.justNow', count: 0 }
}
