import { apiRequest } from '../api-client'
import type { Collection } from './types'

/** The collection image types the dialog's picker offers (section 9); the content decides (lib/image-content). */
export const COLLECTION_IMAGE_ACCEPT = '.png,.jpg,.jpeg,.webp'

function form(title: string, image: File | null) {
  const data = new FormData()
  data.set('title', title)
  if (image) data.set('image', image)
  return data
}

/** POST /api/collection (multipart: title, image). */
export async function createCollection(title: string, image: File) {
  return apiRequest<Collection>('/api/collection', { method: 'POST', formData: form(title, image) })
}

/** PUT /api/collection/{id} (multipart: title, and image only when a new one was picked). */
export async function updateCollection(id: string, title: string, image: File | null) {
  return apiRequest<Collection>(`/api/collection/${encodeURIComponent(id)}`, { method: 'PUT', formData: form(title, image) })
}

/** DELETE /api/collection/{id}. */
export async function deleteCollection(id: string) {
  return apiRequest<unknown>(`/api/collection/${encodeURIComponent(id)}`, { method: 'DELETE' })
}

/** PUT /api/collection/like/{id}: toggles the signed-in user's like. */
export async function likeCollection(id: string) {
  return apiRequest<{ isLiked?: boolean; totalLikes?: number } | null>(`/api/collection/like/${encodeURIComponent(id)}`, { method: 'PUT' })
}
