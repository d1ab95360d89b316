import { mutate } from 'swr'
import { apiRequest } from '@/lib/api-client'
import { MY_PROFILE_KEY } from '@/lib/use-user'

export type ProfileUpdate = {
  fullName: string
  /** Sent only when it changed. */
  username?: string
  mobileNumber: string
  bio: string
  avatar?: File | Blob | null
  coverImage?: Blob | null
}

/** PUT /api/account/myprofile as multipart form data; revalidates my profile. */
export async function updateMyProfile(update: ProfileUpdate) {
  const form = new FormData()
  form.append('fullName', update.fullName)
  if (update.username) form.append('username', update.username)
  form.append('mobileNumber', update.mobileNumber)
  form.append('bio', update.bio)
  if (update.avatar) form.append('avatar', update.avatar, update.avatar instanceof File ? update.avatar.name : 'avatar.png')
  if (update.coverImage) form.append('coverImage', update.coverImage, 'cover.png')
  const result = await apiRequest<unknown>('/api/account/myprofile', { method: 'PUT', formData: form })
  await mutate(MY_PROFILE_KEY)
  return result
}
