import { type Errors, collect, email, required } from '@/lib/validation'
import type { ContactMessage } from './api/contact-us'

/** Name, subject and message required ('Required'); e-mail required and valid ('Enter a valid email'). */
export function validateContact(v: ContactMessage): Errors<ContactMessage> {
  return collect<ContactMessage>({
    name: required(v.name),
    email: email(v.email),
    subject: required(v.subject),
    message: required(v.message),
  })
}
