import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TFunction } from 'i18next'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_LANGUAGES } from '@/lib/i18n'
import { categoryLabel } from './category'

/** The categories the server seeds (domain/src/catalog.rs `DEFAULT_CATEGORIES`). */
const SEEDED = ['art', 'music', 'photography', 'games', 'sports', 'collectibles', 'virtual-worlds', 'utility']

describe('category chips', () => {
  it('are named in every language, the API values kept as ids', () => {
    for (const lng of SUPPORTED_LANGUAGES) {
      const file = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'public', 'locales', lng, 'translation.json'), 'utf8'))
      expect(Object.keys(file.browse.categories).sort(), lng).toEqual([...SEEDED].sort())
    }
    const de = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'public', 'locales', 'ge', 'translation.json'), 'utf8'))
    const t = ((key: string, options: { defaultValue: string }) => {
      const id = key.replace('browse.categories.', '')
      return de.browse.categories[id] ?? options.defaultValue
    }) as unknown as TFunction
    expect(categoryLabel(t, { id: 'art', categoryName: 'Art' })).toBe('Kunst')
    expect(categoryLabel(t, { id: 'virtual-worlds', categoryName: 'Virtual Worlds' })).toBe('Virtuelle Welten')
    expect(categoryLabel(t, { id: 'new-one', categoryName: 'New one' })).toBe('New one')
  })
})
