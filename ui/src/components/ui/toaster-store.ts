import { createToaster } from '@chakra-ui/react'

/** The snackbars' store, shared by `notify` (toaster.tsx) and the view it loads (toaster-view.tsx). */
export const toaster = createToaster({ placement: 'bottom-end', pauseOnPageIdle: true, max: 4 })
