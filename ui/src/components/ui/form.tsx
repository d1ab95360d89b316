import { Stack, type StackProps } from '@chakra-ui/react'
import type { FormEvent, ReactNode } from 'react'

/** A form laid out as a Stack; the browser's own validation is off (the app validates on submit). */
export function Form({ onSubmit, children, ...rest }: { onSubmit: (e: FormEvent) => void; children: ReactNode } & Omit<StackProps, 'onSubmit'>) {
  return (
    <Stack asChild {...rest}>
      <form noValidate onSubmit={onSubmit}>
        {children}
      </form>
    </Stack>
  )
}
