import { Field } from '@chakra-ui/react'
import type { ReactNode } from 'react'

/** A labelled form control with its validation message (shown after submit). */
export function FormField({
  label,
  error,
  helper,
  children,
  required,
}: {
  label?: ReactNode
  error?: string | null
  helper?: ReactNode
  children: ReactNode
  required?: boolean
}) {
  return (
    <Field.Root invalid={!!error} required={required}>
      {label && (
        <Field.Label>
          {label}
          {required && <Field.RequiredIndicator />}
        </Field.Label>
      )}
      {children}
      {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  )
}
