import { Badge, Box, HStack, Portal, Spinner, Stack, Toast, Toaster as ChakraToaster } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { formatCount } from '@/lib/format'
import type { SnackbarMeta } from './toaster'
import { toaster } from './toaster-store'

/** The snackbars at the bottom right (see `Toaster` in toaster.tsx, which loads this with the first one). */
export function ToasterView() {
  const { t, i18n } = useTranslation()
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => {
          const meta = toast.meta as SnackbarMeta | undefined
          return (
            <Toast.Root width={{ md: 'sm' }} data-testid="snackbar" data-type={toast.type}>
              {toast.type === 'loading' ? <Spinner size="sm" color="brand.solid" /> : <Toast.Indicator />}
              <Stack gap="1" flex="1" minW="0" maxWidth="100%">
                {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
                {toast.description && (
                  <Toast.Description overflowWrap="anywhere">
                    {toast.description}
                    {meta && meta.count > 1 && (
                      // The same message came again: counted, not repeated.
                      <Badge ms="2" size="sm" variant="solid" colorPalette="gray" verticalAlign="middle" data-testid="snackbar-count">
                        ×{formatCount(meta.count, i18n.resolvedLanguage)}
                      </Badge>
                    )}
                  </Toast.Description>
                )}
                {meta?.detail && (
                  <Box as="details" fontSize="xs" data-testid="snackbar-detail">
                    <Box as="summary" cursor="pointer" fontWeight="medium" w="fit-content">
                      {t('contractErrors.details')}
                    </Box>
                    <Box as="pre" mt="1" whiteSpace="pre-wrap" overflowWrap="anywhere" fontFamily="mono" maxH="8rem" overflowY="auto" opacity={0.85}>
                      {meta.detail}
                    </Box>
                  </Box>
                )}
                {toast.action && (
                  <HStack>
                    <Toast.ActionTrigger data-testid="snackbar-action">{toast.action.label}</Toast.ActionTrigger>
                  </HStack>
                )}
              </Stack>
              {toast.closable && <Toast.CloseTrigger />}
            </Toast.Root>
          )
        }}
      </ChakraToaster>
    </Portal>
  )
}
