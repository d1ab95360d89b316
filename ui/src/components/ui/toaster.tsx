import { Portal, Spinner, Stack, Toast, Toaster as ChakraToaster, createToaster } from '@chakra-ui/react'

/** Snackbars appear at the bottom right. Account messages stay 6 seconds. */
export const ACCOUNT_MESSAGE_DURATION = 6000

export const toaster = createToaster({ placement: 'bottom-end', pauseOnPageIdle: true, max: 4 })

type Kind = 'success' | 'error' | 'warning' | 'info'

/** Shows a snackbar with an already translated (or server) message. */
export function notify(kind: Kind, description: string, duration = ACCOUNT_MESSAGE_DURATION) {
  return toaster.create({ type: kind, description, duration, closable: true })
}

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} data-testid="snackbar">
            {toast.type === 'loading' ? <Spinner size="sm" color="brand.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.closable && <Toast.CloseTrigger />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  )
}
