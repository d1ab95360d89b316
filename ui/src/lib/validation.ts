/**
 * Validation rules of the spec. Each returns a translation key (under `validation.`) or null;
 * forms translate them. Validation runs on submit only.
 */
import type { TranslationKey } from './i18n'

export type Errors<T> = Partial<Record<keyof T, TranslationKey>>

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/

export const isEmail = (value: string) => EMAIL_RE.test(value.trim())
export const isNumeric = (value: string) => /^\d+$/.test(value.trim())

export function required(value: string): TranslationKey | null {
  return value.trim() ? null : 'validation.required'
}

/** E-mail required and valid: both fail with 'Enter a valid email'. */
export function email(value: string): TranslationKey | null {
  return isEmail(value) ? null : 'validation.email'
}

/** Required, then a number ('Verification code must be a number'). */
export function numericCode(value: string): TranslationKey | null {
  if (!value.trim()) return 'validation.required'
  return isNumeric(value) ? null : 'validation.codeNumber'
}

/** Keeps only the fields that failed. */
export function collect<T>(checks: Record<keyof T, TranslationKey | null>): Errors<T> {
  const errors: Errors<T> = {}
  for (const key of Object.keys(checks) as (keyof T)[]) {
    if (checks[key]) errors[key] = checks[key]
  }
  return errors
}
