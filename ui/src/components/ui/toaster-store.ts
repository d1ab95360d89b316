import { createToaster } from '@chakra-ui/react'

/**
 * The snackbars' store, shared by `notify` (toaster.tsx) and the view it loads (toaster-view.tsx).
 * `notify` keeps at most 4 on screen itself; the store's own limit only holds back (queues) past
 * it, so it is kept above what a closing snackbar and the newest could need together.
 */
export const toaster = createToaster({ placement: 'bottom-end', pauseOnPageIdle: true, max: 8 })
