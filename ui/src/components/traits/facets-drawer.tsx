import { Button, CloseButton, Drawer, HStack, Portal, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** The facet panel in a drawer from the start edge (a phone's), with the list's count and Done. */
export function FacetsDrawer({ open, onClose, total, children }: { open: boolean; onClose: () => void; total: number | undefined; children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Drawer.Root open={open} onOpenChange={(e) => !e.open && onClose()} placement="start" size="xs">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="facets-drawer">
            <Drawer.Header>
              <Drawer.Title>{t('traits.filters')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>{children}</Drawer.Body>
            <Drawer.Footer borderTopWidth="1px">
              <HStack w="full" justify="space-between">
                <Text fontSize="sm" color="fg.muted" data-testid="facets-total">
                  {total !== undefined ? t('traits.results', { count: total }) : null}
                </Text>
                <Button colorPalette="brand" onClick={onClose}>
                  {t('traits.done')}
                </Button>
              </HStack>
            </Drawer.Footer>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  )
}
