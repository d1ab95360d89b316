import { type Errors, collect, required } from '@/lib/validation'

export type EditProfileValues = { fullName: string; username: string; bio: string; mobileNumber: string }

/** Every field is required ('Required'). */
export function validateEditProfile(v: EditProfileValues): Errors<EditProfileValues> {
  return collect<EditProfileValues>({
    fullName: required(v.fullName),
    username: required(v.username),
    bio: required(v.bio),
    mobileNumber: required(v.mobileNumber),
  })
}
