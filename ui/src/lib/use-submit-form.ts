import { type ChangeEvent, type FormEvent, useCallback, useState } from 'react'
import type { Errors } from './validation'

/**
 * A plain controlled form that validates on submit only: errors appear after a submit and are
 * recomputed on the next submit, never on change or blur.
 */
export function useSubmitForm<T extends Record<string, string>>(initial: T, validate: (values: T) => Errors<T>) {
  const [values, setValues] = useState<T>(initial)
  const [errors, setErrors] = useState<Errors<T>>({})
  const [submitting, setSubmitting] = useState(false)

  const setValue = useCallback((name: keyof T, value: string) => setValues((v) => ({ ...v, [name]: value })), [])

  const field = (name: keyof T) => ({
    name: name as string,
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValue(name, e.target.value),
  })

  const handleSubmit = (onValid: (values: T) => Promise<void> | void) => async (event?: FormEvent) => {
    event?.preventDefault()
    const found = validate(values)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setSubmitting(true)
    try {
      await onValid(values)
    } finally {
      setSubmitting(false)
    }
  }

  const reset = (next: T = initial) => {
    setValues(next)
    setErrors({})
  }

  return { values, errors, submitting, field, setValue, handleSubmit, reset, setErrors }
}
