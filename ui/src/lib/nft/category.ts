import type { TFunction } from 'i18next'

/** A category's name in the language shown; the API's name for one the translations do not know. */
export function categoryLabel(t: TFunction, category: { id: string; categoryName: string }) {
  return t(`browse.categories.${category.id}`, { defaultValue: category.categoryName })
}
